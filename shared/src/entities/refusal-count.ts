import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

// How many requests the gateway refused per UTC day and error code. Only the code and a number:
// nothing of the refused request (content, address, token) is ever stored. Gateways add to the row
// with an upsert (see shared/src/statistics/refusal-counts.ts), so several of them add up.
export const RefusalCountSchema = defineEntity({
  name: 'RefusalCount',
  tableName: 'refusal_counts',
  properties: {
    day: p.string().columnType('date').primary(),
    code: p.string().length(64).primary(),
    count: p.bigint('number'),
  },
});

export type RefusalCount = InferEntity<typeof RefusalCountSchema>;
