import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { DeliverySchema } from './delivery.js';
import { idProperty } from './timestamps.js';

// One try at a delivery, for the delivery log: what the receiver answered (status code and the
// first KiB of its body) or why there was no answer (`error`: timeout, refused address, …).
export const DeliveryAttemptSchema = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'delivery_attempts',
  properties: {
    id: idProperty(),
    delivery: () => p.manyToOne(DeliverySchema).deleteRule('cascade').index(),
    number: p.integer(),
    startedAt: p.datetime(),
    durationMs: p.integer(),
    succeeded: p.boolean(),
    statusCode: p.integer().nullable(),
    error: p.string().length(300).nullable(),
    response: p.text().nullable(),
  },
});

export type DeliveryAttempt = InferEntity<typeof DeliveryAttemptSchema>;
