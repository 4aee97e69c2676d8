import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { FormSchema } from './form.js';
import { SubmissionSchema } from './submission.js';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';
import { WebhookSchema } from './webhook.js';

/** `confirmation`: the e-mail to the person who submitted (docs/confirmations.md). */
export const DELIVERY_CHANNELS = ['webhook', 'email', 'confirmation'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

// The transactional outbox: one row per event and destination (a webhook, or a form's notification
// e-mails), written in the transaction of its submission. The worker claims due rows with a lease
// (`lockedUntil`, `lockToken`): a worker that dies mid-delivery leaves a lease that expires, and
// the row is claimed again. Its id is the `webhook-id` receivers use to deduplicate.
export const DeliverySchema = defineEntity({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    id: idProperty(),
    channel: p.enum(DELIVERY_CHANNELS),
    /** Null for an e-mail about a member (an invitation) rather than a form. */
    form: () => p.manyToOne(FormSchema).nullable().deleteRule('cascade').index(),
    /** The invited member of an invitation e-mail; their removal takes the delivery with it. */
    member: () => p.manyToOne(AdminUserSchema).nullable().deleteRule('cascade').index(),
    webhook: () => p.manyToOne(WebhookSchema).nullable().deleteRule('cascade').index(),
    /** Null for events that are not about a submission (a test event). */
    submission: () => p.manyToOne(SubmissionSchema).nullable().deleteRule('cascade').index(),
    eventType: p.string().length(64),
    /** E-mail addresses of an e-mail delivery. */
    recipients: p.array().nullable(),
    /** The event's data when it is not built from a submission at send time. */
    payload: p.json<Record<string, unknown>>().columnType('jsonb').nullable(),
    status: p.enum(DELIVERY_STATUSES).default('pending'),
    /** Every attempt ever made, across redeliveries. */
    attemptCount: p.integer().default(0),
    /** Failed attempts in the current run: the index into the retry schedule. */
    retryStep: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lockedUntil: p.datetime().nullable(),
    lockToken: p.uuid().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
  // The worker's claim: pending rows by due time.
  indexes: [{ name: 'deliveries_status_next_attempt_at_index', properties: ['status', 'nextAttemptAt'] }],
});

export type Delivery = InferEntity<typeof DeliverySchema>;
