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
 * addresses in one message). Reads the form's webhooks; the caller flushes.
 */
export async function enqueueSubmissionDeliveries(em: Em, form: Form, submission: Submission): Promise<void> {
  // COMMIT: this read must not flush the caller's unit of work before its own transaction.
  const webhooks = await em.find(
    WebhookSchema,
    { form: form.id, enabled: true },
    { fields: ['id'], flushMode: FlushMode.COMMIT },
  );
  const now = new Date();
  const common = {
    form: em.getReference(FormSchema, form.id),
    submission,
    eventType: SUBMISSION_CREATED,
    nextAttemptAt: now,
  };
  for (const webhook of webhooks) {
    em.create(DeliverySchema, { ...common, channel: 'webhook', webhook: em.getReference(WebhookSchema, webhook.id) });
  }
  const recipients = form.notifyEmails ?? [];
  if (recipients.length > 0) {
    em.create(DeliverySchema, { ...common, channel: 'email', recipients: [...recipients] });
  }
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
