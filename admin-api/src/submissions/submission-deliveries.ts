// What became of a submission: its deliveries (webhooks, notification e-mails, the confirmation) as the people who
// read the submission may see them. Unlike the delivery log of the Webhooks page (site managers
// only) this shows no full URL, no address and no answer body: a URL's path or query may carry a
// receiver's secret, and an answer may echo the submitted values.
import type { Em } from '@intake/shared/db';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from '@intake/shared/entities';
import { summarizeAttemptError, webhookHost } from '../lib/delivery-summary.js';
import { STATUSES } from '../webhooks/presenters.js';
import type { SubmissionDeliveryType } from './submission-delivery.type.js';

function targetOf(delivery: Delivery): string {
  if (delivery.channel === 'webhook') {
    return delivery.webhook ? webhookHost(delivery.webhook.url) : 'webhook';
  }
  if (delivery.channel === 'confirmation') {
    return 'the submitter';
  }
  const count = delivery.recipients?.length ?? 0;
  return `${count} ${count === 1 ? 'recipient' : 'recipients'}`;
}

function present(delivery: Delivery, latest: DeliveryAttempt | undefined): SubmissionDeliveryType {
  return {
    id: delivery.id,
    channel: delivery.channel,
    target: targetOf(delivery),
    status: STATUSES[delivery.status as DeliveryStatus],
    attemptCount: delivery.attemptCount,
    lastError: latest ? summarizeAttemptError(latest) : null,
    lastAttemptAt: delivery.lastAttemptAt ? delivery.lastAttemptAt.toISOString() : null,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    createdAt: delivery.createdAt.toISOString(),
  };
}

/** The deliveries of one submission, oldest first, each with its latest attempt's outcome. */
export async function submissionDeliveries(em: Em, submissionId: string): Promise<SubmissionDeliveryType[]> {
  const deliveries = await em.find(
    DeliverySchema,
    { submission: submissionId },
    { populate: ['webhook'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  if (deliveries.length === 0) {
    return [];
  }
  const attempts = await em.find(
    DeliveryAttemptSchema,
    { delivery: { $in: deliveries.map((delivery) => delivery.id) } },
    { orderBy: { number: 'asc', startedAt: 'asc' } },
  );
  const latest = new Map<string, DeliveryAttempt>();
  for (const attempt of attempts) {
    latest.set(attempt.delivery.id, attempt);
  }
  return deliveries.map((delivery) => present(delivery, latest.get(delivery.id)));
}
