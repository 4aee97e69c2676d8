// Which destinations of a form keep failing, for the console's notice: lost notifications are what
// users of form services complain about most, and a failing webhook is silent unless someone looks.
// The rule (docs/webhooks.md#failing-deliveries), per webhook and for the notification e-mails:
// alert when the newest delivery failed for good (no retry left), or the newest
// FAILURES_IN_A_ROW attempts all failed; a webhook the worker turned off for failing always alerts,
// one an administrator turned off never does.
import type { Em } from '@intake/shared/db';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  WebhookSchema,
  type Delivery,
  type DeliveryAttempt,
  type Webhook,
} from '@intake/shared/entities';
import type { FilterQuery } from '@mikro-orm/core';
import { summarizeAttemptError, webhookHost } from '../lib/delivery-summary.js';
import type { DeliveryAlertType } from './delivery-alert.type.js';
import { DISABLED_BY_ADMINISTRATOR } from './update-webhook.js';

export const FAILURES_IN_A_ROW = 3;
const COUNTED_ATTEMPTS = 10;

type Destination = { webhook: string } | { form: string; channel: 'email' };

async function alertOf(
  em: Em,
  destination: Destination,
  alert: Pick<DeliveryAlertType, 'channel' | 'webhookId' | 'target'>,
  disabledForFailing: boolean,
): Promise<DeliveryAlertType | null> {
  const newest = await em.findOne(DeliverySchema, destination as FilterQuery<Delivery>, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    fields: ['status'],
  });
  const attempts: DeliveryAttempt[] = await em.find(
    DeliveryAttemptSchema,
    { delivery: destination as FilterQuery<Delivery> },
    { orderBy: { startedAt: 'desc', number: 'desc' }, limit: COUNTED_ATTEMPTS },
  );
  const failed = attempts.findIndex((attempt) => attempt.succeeded);
  const consecutiveFailures = failed === -1 ? attempts.length : failed;
  const reason = disabledForFailing
    ? 'disabled'
    : newest?.status === 'failed'
      ? 'failed'
      : consecutiveFailures >= FAILURES_IN_A_ROW
        ? 'failing'
        : null;
  if (reason === null) {
    return null;
  }
  const latest = attempts[0];
  return {
    ...alert,
    reason,
    consecutiveFailures,
    lastError: latest ? summarizeAttemptError(latest) : null,
    lastFailureAt: latest && !latest.succeeded ? latest.startedAt.toISOString() : null,
  };
}

function disabledForFailing(webhook: Webhook): boolean {
  return !webhook.enabled && webhook.disabledReason !== DISABLED_BY_ADMINISTRATOR;
}

/** The form's failing destinations: its webhooks, oldest first, then its notification e-mails. */
export async function formDeliveryAlerts(em: Em, formId: string): Promise<DeliveryAlertType[]> {
  const webhooks = await em.find(WebhookSchema, { form: formId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const alerts = await Promise.all([
    ...webhooks
      .filter((webhook) => webhook.enabled || disabledForFailing(webhook))
      .map((webhook) =>
        alertOf(
          em,
          { webhook: webhook.id },
          { channel: 'webhook', webhookId: webhook.id, target: webhookHost(webhook.url) },
          disabledForFailing(webhook),
        ),
      ),
    alertOf(
      em,
      { form: formId, channel: 'email' },
      { channel: 'email', webhookId: null, target: 'notification e-mails' },
      false,
    ),
  ]);
  return alerts.filter((alert) => alert !== null);
}
