// The transactional outbox. These functions only add rows to the unit of work: the caller's flush
// commits them in the same transaction as what they are about (a submission and its files), so a
// committed submission always has its deliveries and a refused one never does.
import { FlushMode } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import {
  DeliverySchema,
  FormSchema,
  WebhookSchema,
  type Delivery,
  type Form,
  type Submission,
} from '../entities/index.js';
import { SUBMISSION_CREATED, WEBHOOK_TEST } from './event.js';

/**
 * One delivery per enabled webhook of the form, and one for the form's notification e-mails (all
 * addresses in one message); the caller flushes. `webhookIds` are the form's enabled webhooks when
 * the caller already knows them (the gateway caches them with the form); without them they are read.
 */
export async function enqueueSubmissionDeliveries(
  em: Em,
  form: Form,
  submission: Submission,
  webhookIds?: readonly string[],
): Promise<void> {
  const webhooks = webhookIds ?? (await enabledWebhookIds(em, form.id));
  const now = new Date();
  const common = {
    form: em.getReference(FormSchema, form.id),
    submission,
    eventType: SUBMISSION_CREATED,
    nextAttemptAt: now,
  };
  for (const webhookId of webhooks) {
    em.create(DeliverySchema, { ...common, channel: 'webhook', webhook: em.getReference(WebhookSchema, webhookId) });
  }
  const recipients = form.notifyEmails ?? [];
  if (recipients.length > 0) {
    em.create(DeliverySchema, { ...common, channel: 'email', recipients: [...recipients] });
  }
}

/** The ids of the form's enabled webhooks, the ones a new submission is delivered to. */
export async function enabledWebhookIds(em: Em, formId: string): Promise<string[]> {
  // COMMIT: this read must not flush the caller's unit of work before its own transaction.
  const webhooks = await em.find(
    WebhookSchema,
    { form: formId, enabled: true },
    { fields: ['id'], flushMode: FlushMode.COMMIT },
  );
  return webhooks.map((webhook) => webhook.id);
}

/** A `webhook.test` event for one webhook, due at once; the caller flushes. */
export function enqueueTestDelivery(
  em: Em,
  webhook: { id: string; formId: string },
  data: Record<string, unknown>,
): Delivery {
  return em.create(DeliverySchema, {
    channel: 'webhook',
    form: em.getReference(FormSchema, webhook.formId),
    webhook: em.getReference(WebhookSchema, webhook.id),
    submission: null,
    eventType: WEBHOOK_TEST,
    payload: data,
    nextAttemptAt: new Date(),
  });
}
