import type { Delivery, DeliveryAttempt, DeliveryStatus, Webhook } from '@intake/shared/entities';
import {
  DeliveryStatusEnum,
  type WebhookFormatEnum,
  type DeliveryAttemptType,
  type DeliveryType,
  type WebhookType,
} from './webhook.type.js';

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

export function presentWebhook(webhook: Webhook): WebhookType {
  return {
    id: webhook.id,
    formId: webhook.form.id,
    url: webhook.url,
    description: webhook.description ?? null,
    // The stored values are the enum's values (webhook.type.ts).
    format: (webhook.format ?? 'standard') as WebhookFormatEnum,
    enabled: webhook.enabled,
    disabledAt: iso(webhook.disabledAt),
    disabledReason: webhook.disabledReason ?? null,
    failingSince: iso(webhook.failingSince),
    lastSuccessAt: iso(webhook.lastSuccessAt),
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

export function presentDeliveryAttempt(attempt: DeliveryAttempt): DeliveryAttemptType {
  return {
    number: attempt.number,
    startedAt: attempt.startedAt.toISOString(),
    durationMs: attempt.durationMs,
    succeeded: attempt.succeeded,
    statusCode: attempt.statusCode ?? null,
    error: attempt.error ?? null,
    response: attempt.response ?? null,
  };
}

/** A stored delivery status as the API's enum. */
export const STATUSES: Record<DeliveryStatus, DeliveryStatusEnum> = {
  pending: DeliveryStatusEnum.PENDING,
  succeeded: DeliveryStatusEnum.SUCCEEDED,
  failed: DeliveryStatusEnum.FAILED,
};

export function presentDelivery(delivery: Delivery, attempts: readonly DeliveryAttempt[]): DeliveryType {
  return {
    id: delivery.id,
    channel: delivery.channel,
    webhookId: delivery.webhook?.id ?? null,
    // Only a form's deliveries are listed (an invitation e-mail, without form, never is).
    formId: delivery.form?.id ?? '',
    submissionId: delivery.submission?.id ?? null,
    eventType: delivery.eventType,
    recipients: delivery.recipients ? [...delivery.recipients] : null,
    status: STATUSES[delivery.status as DeliveryStatus],
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    completedAt: iso(delivery.completedAt),
    createdAt: delivery.createdAt.toISOString(),
    attempts: attempts.map(presentDeliveryAttempt),
  };
}
