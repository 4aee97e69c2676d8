// The transactional outbox: which deliveries a new submission gets (`submissionDeliveries`, the
// one statement of that rule), and functions that add rows to the unit of work: the caller's flush
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
import { confirmationRecipient, type ConfirmationSettings } from './confirmation.js';
import { SUBMISSION_CREATED, WEBHOOK_TEST } from './event.js';

/**
 * An outbox row a new submission gets: one of its form's enabled webhooks, its notification e-mails,
 * or the confirmation to the person who submitted.
 */
export type SubmissionDelivery =
  | { channel: 'webhook'; webhookId: string }
  | { channel: 'email'; recipients: string[] }
  | { channel: 'confirmation'; recipients: [string] };

/**
 * Which deliveries a new submission gets, the one rule every path that writes them follows (the
 * gateway's transaction and its group statement, the admin API's "Not spam"): one per enabled
 * webhook of the form, one for its notification e-mails (all addresses in one message), one
 * confirmation when the form sends them and its address field holds one plain address, and none
 * for spam, until an administrator marks it "Not spam".
 */
export function submissionDeliveries(
  form: Pick<Form, 'notifyEmails'> & ConfirmationSettings,
  webhookIds: readonly string[],
  spam: boolean,
  data: Record<string, unknown>,
): SubmissionDelivery[] {
  if (spam) {
    return [];
  }
  const deliveries: SubmissionDelivery[] = webhookIds.map((webhookId) => ({ channel: 'webhook', webhookId }));
  const recipients = form.notifyEmails ?? [];
  if (recipients.length > 0) {
    deliveries.push({ channel: 'email', recipients: [...recipients] });
  }
  const submitter = confirmationRecipient(form, data);
  if (submitter !== undefined) {
    deliveries.push({ channel: 'confirmation', recipients: [submitter] });
  }
  return deliveries;
}

/**
 * Adds the submission's deliveries (`submissionDeliveries`, its spam flag as the verdict) to the unit
 * of work; the caller flushes. `webhookIds` are the form's enabled webhooks when the caller already
 * knows them (the gateway caches them with the form); without them they are read.
 */
export async function enqueueSubmissionDeliveries(
  em: Em,
  form: Form,
  submission: Submission,
  webhookIds?: readonly string[],
): Promise<void> {
  const webhooks = webhookIds ?? (await enabledWebhookIds(em, form.id));
  const common = {
    form: em.getReference(FormSchema, form.id),
    submission,
    eventType: SUBMISSION_CREATED,
    nextAttemptAt: new Date(),
  };
  for (const delivery of submissionDeliveries(form, webhooks, submission.spam, submission.data)) {
    if (delivery.channel === 'webhook') {
      em.create(DeliverySchema, {
        ...common,
        channel: 'webhook',
        webhook: em.getReference(WebhookSchema, delivery.webhookId),
      });
    } else {
      em.create(DeliverySchema, { ...common, channel: delivery.channel, recipients: [...delivery.recipients] });
    }
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
