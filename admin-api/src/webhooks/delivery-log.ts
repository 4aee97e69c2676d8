import type { Em } from '@intake/shared/db';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from '@intake/shared/entities';
import type { FilterQuery } from '@mikro-orm/core';
import { requireLiveForm } from '../lib/live-finders.js';
import { requireLiveWebhook } from './live-webhook.js';

export interface LoggedDelivery {
  delivery: Delivery;
  /** In order: first attempt first. */
  attempts: DeliveryAttempt[];
}

/** Deliveries with their attempts (one query for all attempts). */
export async function withAttempts(em: Em, deliveries: readonly Delivery[]): Promise<LoggedDelivery[]> {
  const attempts =
    deliveries.length === 0
      ? []
      : await em.find(
          DeliveryAttemptSchema,
          { delivery: { $in: deliveries.map((delivery) => delivery.id) } },
          { orderBy: { number: 'asc', startedAt: 'asc' } },
        );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery.id) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.delivery.id, list);
  }
  return deliveries.map((delivery) => ({ delivery, attempts: byDelivery.get(delivery.id) ?? [] }));
}

export interface DeliveryLogQuery {
  status: DeliveryStatus | null | undefined;
  first: number;
}

/** Whose deliveries: a webhook's, or a form's on one channel. */
type DeliveryOwner = { webhook: string } | { form: string; channel: 'email' };

async function newestDeliveries(em: Em, owner: DeliveryOwner, query: DeliveryLogQuery) {
  const deliveries = await em.find(
    DeliverySchema,
    { ...owner, ...(query.status ? { status: query.status } : {}) } as FilterQuery<Delivery>,
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.first },
  );
  return withAttempts(em, deliveries);
}

/** Deliveries of a webhook of a live form, newest first, with their attempts. */
export async function webhookDeliveries(em: Em, webhookId: string, query: DeliveryLogQuery): Promise<LoggedDelivery[]> {
  const webhook = await requireLiveWebhook(em, webhookId);
  return newestDeliveries(em, { webhook: webhook.id }, query);
}

/** Notification e-mail deliveries of a live form, newest first, with their attempts. */
export async function emailDeliveries(em: Em, formId: string, query: DeliveryLogQuery): Promise<LoggedDelivery[]> {
  const form = await requireLiveForm(em, formId);
  return newestDeliveries(em, { form: form.id, channel: 'email' }, query);
}
