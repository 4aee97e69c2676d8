import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// Between a right password (or a single sign-on) and the code of a member with a second factor: the
// console holds a random challenge (the database only its sha256) instead of the password. Single use
// and short-lived; too many wrong codes end it. After a single sign-on it names the provider's
// account (issuer and subject), linked to the member once the second factor is right.
export const SecondFactorChallengeSchema = defineEntity({
  name: 'SecondFactorChallenge',
  tableName: 'second_factor_challenges',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade'),
    secretHash: p.string().length(64).unique(),
    failedAttempts: p.integer().default(0),
    ssoIssuer: p.string().length(2048).nullable(),
    ssoSubject: p.string().length(255).nullable(),
    createdAt: createdAtProperty(),
    expiresAt: p.datetime().index(),
  },
});

export type SecondFactorChallenge = InferEntity<typeof SecondFactorChallengeSchema>;
