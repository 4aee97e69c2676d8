import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A member's passkey (WebAuthn credential, docs/sign-in.md): the credential id and public key the
// authenticator gave at registration, both base64url, and its signature counter, which must grow
// with every sign-in where the authenticator keeps one (a copied authenticator shows up as a counter
// that did not). bigint: the counter is an unsigned 32-bit number, past int's range.
export const PasskeySchema = defineEntity({
  name: 'Passkey',
  tableName: 'passkeys',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade'),
    name: p.string().length(100),
    credentialId: p.text().unique(),
    publicKey: p.text(),
    counter: p.bigint('number').default(0),
    transports: p.array().nullable(),
    /** A multi-device (synced) passkey, as the authenticator reported it at registration. */
    backedUp: p.boolean().default(false),
    createdAt: createdAtProperty(),
    lastUsedAt: p.datetime().nullable(),
  },
});

export type Passkey = InferEntity<typeof PasskeySchema>;

export const PASSKEY_CHALLENGE_PURPOSES = ['registration', 'sign_in', 'confirmation'] as const;
export type PasskeyChallengePurpose = (typeof PASSKEY_CHALLENGE_PURPOSES)[number];

// A WebAuthn challenge the server handed out: only its sha256 is kept, it is used once and lives a
// few minutes. A registration belongs to the signed-in member; a sign-in has a member only when the
// passkey serves as the second factor after a password (then only that member's passkeys answer it);
// a confirmation (a recent sign-in, confirmSignIn) belongs to the signed-in member.
export const PasskeyChallengeSchema = defineEntity({
  name: 'PasskeyChallenge',
  tableName: 'passkey_challenges',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade').nullable(),
    purpose: p.enum(PASSKEY_CHALLENGE_PURPOSES).columnType('varchar(16)'),
    challengeHash: p.string().length(64).unique(),
    createdAt: createdAtProperty(),
    expiresAt: p.datetime().index(),
  },
});

export type PasskeyChallenge = InferEntity<typeof PasskeyChallengeSchema>;
