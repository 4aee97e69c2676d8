import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { updatedAtProperty } from './timestamps.js';

/** The one row of `team_policy` (made by its migration). */
export const TEAM_POLICY_ID = 1;

// How the team signs in, set by an owner (docs/sign-in.md). One row, id 1.
export const TeamPolicySchema = defineEntity({
  name: 'TeamPolicy',
  tableName: 'team_policy',
  properties: {
    id: p.integer().primary().autoincrement(false),
    requireSecondFactor: p.boolean().default(false),
    updatedAt: updatedAtProperty(),
  },
});

export type TeamPolicy = InferEntity<typeof TeamPolicySchema>;
