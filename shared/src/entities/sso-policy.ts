import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The one row of `sso_policy` (its id is always this). */
export const SSO_POLICY_ID = 1;

// The team's single sign-on policy, set by an owner: whether people who can use single sign-on may
// still sign in with a password (owners always may: their way back in when the provider fails).
export const SsoPolicySchema = defineEntity({
  name: 'SsoPolicy',
  tableName: 'sso_policy',
  properties: {
    id: p.integer().primary().autoincrement(false),
    passwordSignIn: p.boolean().default(true),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type SsoPolicy = InferEntity<typeof SsoPolicySchema>;
