import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

// How many confirmations the worker sent per hour (docs/confirmations.md#rate-limits): one row per
// window and scope, `form:<form id>` or `address:<SHA-256 of the address, trimmed and lower-cased>`
// (never the address). The worker adds to a row with a guarded upsert before each send and drops the
// windows that are over; an erasure of a person drops their address's rows.
export const ConfirmationCountSchema = defineEntity({
  name: 'ConfirmationCount',
  tableName: 'confirmation_counts',
  properties: {
    scope: p.string().length(80).primary(),
    windowStart: p.datetime().primary(),
    count: p.integer(),
  },
});

export type ConfirmationCount = InferEntity<typeof ConfirmationCountSchema>;
