import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

/** What a member may do: an owner everything, an admin everything but owners, a member only granted sites. */
export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Only an active member signs in and acts; a disabled member's sessions and tokens stop at once. */
export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

// A member of the team (the table keeps its first name, `admin_users`: every account was an
// administrator before roles existed, and they all became owners). An invited member (status
// `invited`) has no usable password until they accept their invitation (docs/teams.md). `passwordChangedAt` lets a
// password change end every admin token issued before it.
export const AdminUserSchema = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_users',
  properties: {
    id: idProperty(),
    email: p.string().length(320).unique(),
    name: p.string().length(200).default(''),
    role: p.enum(MEMBER_ROLES).columnType('varchar(16)').default('member'),
    status: p.enum(MEMBER_STATUSES).columnType('varchar(16)').default('active'),
    passwordHash: p.string().length(255),
    passwordChangedAt: p.datetime().onCreate(() => new Date()),
    /** SHA-256 of the invitation link's token (hex); kept after use, so a second use is told "used". */
    invitationTokenHash: p.string().length(64).nullable().unique(),
    invitedAt: p.datetime().nullable(),
    invitationExpiresAt: p.datetime().nullable(),
    invitationUsedAt: p.datetime().nullable(),
    // Time-based one-time codes (docs/sign-in.md): the secret sealed like webhook secrets, the one
    // being enrolled until its first code confirms it, and the last time step a code was accepted
    // at (a code is accepted once). bigint: a JavaScript number holds every step until far past 2100.
    totpSecret: p.text().nullable(),
    totpPendingSecret: p.text().nullable(),
    totpEnabledAt: p.datetime().nullable(),
    totpLastStep: p.bigint('number').nullable(),
    // The account at the OpenID provider this member signed in with first (docs/single-sign-on.md):
    // its issuer and subject. Another account naming the same e-mail is refused until an owner unlinks.
    ssoIssuer: p.string().length(2048).nullable(),
    ssoSubject: p.string().length(255).nullable(),
    /** The last sign-in with the password (or password change): a password change lists the passkeys added since. */
    passwordSignedInAt: p.datetime().nullable(),
    // Whether the member holds a passkey: no column, a subquery read only when asked for
    // (`populate: ['hasPasskey']`), so each request learns its caller's second factors with the
    // member row instead of by a query of its own (admin-api's access/principal.ts).
    hasPasskey: p
      .formula<boolean>((columns) => `exists (select 1 from passkeys where passkeys.admin_id = ${columns.id})`)
      .type('boolean')
      .persist(false)
      .lazy(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
  // One account at the provider signs in as one member only.
  uniques: [{ name: 'admin_users_sso_issuer_sso_subject_unique', properties: ['ssoIssuer', 'ssoSubject'] }],
});

export type AdminUser = InferEntity<typeof AdminUserSchema>;
