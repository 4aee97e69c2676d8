// Signs in the person an OpenID provider vouched for: the provider's verified e-mail names a
// member of the team (active, or invited: signing in accepts an invitation that still holds); an
// unknown person is refused or, with OIDC_NEW_MEMBERS=member, joins as a member with no site grants.
// The member is linked to the provider's account at the first sign-in and to no other after. A
// member with a second factor gets a challenge instead of a session: the provider stood in for the
// password only (the link then waits for the second factor).
import { randomBytes } from 'node:crypto';
import type { OidcConfig } from '@intake/shared/config';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { startSession, type StartedSession } from '../../access/admin-sessions.js';
import { issueChallenge, type IssuedChallenge } from '../two-factor/challenges.js';
import type { SecondFactorKind } from '../../errors.js';
import { EMAIL_MAX_LENGTH, findAdminByEmail } from '../../access/find-admin.js';
import { invitationState } from '../../access/invitation-state.js';
import { linkAccount, requireAccountOf } from './account-link.js';
import { emailDomainAllowed } from './email-domain.js';
import type { SsoIdentity } from './oidc-client.js';
import { SsoSignInError } from './sign-in-failure.js';
import { secondFactorMethods } from '../password/login.js';

const NAME_MAX_LENGTH = 200;

export interface SsoSignedIn {
  member: AdminUser;
  /** `created`: a new member; `activated`: an invited one who accepted by signing in. */
  joined: 'created' | 'activated' | null;
  /** The session, or, for a member with a second factor, the challenge the second step answers. */
  outcome:
    | { kind: 'session'; session: StartedSession }
    | { kind: 'second-factor'; challenge: IssuedChallenge; methods: SecondFactorKind[] };
}

/** A name for a new member: the provider's, else the e-mail's local part. */
function nameOf(identity: SsoIdentity): string {
  const name = identity.name?.trim() || identity.email.split('@')[0]!;
  return name.slice(0, NAME_MAX_LENGTH);
}

async function newMember(em: Em, identity: SsoIdentity): Promise<AdminUser> {
  // A member made here signs in through the provider; the password nobody knows keeps the column's
  // rule (every account has a hash) until they set one through a reset.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    const member = em.create(AdminUserSchema, {
      email: identity.email,
      name: nameOf(identity),
      role: 'member',
      status: 'active',
      passwordHash,
    });
    await em.flush();
    return member;
  } catch (error) {
    // The same person signing in twice at once: the first made the member.
    if (error instanceof UniqueConstraintViolationException) {
      em.clear();
      const existing = await findAdminByEmail(em, identity.email);
      if (existing !== null) {
        return existing;
      }
    }
    throw error;
  }
}

/**
 * The provider proved the invitee controls the invited address: that accepts the invitation while it
 * holds (as its link would), and the link then says "used" to whoever opens it.
 */
async function acceptInvitation(em: Em, member: AdminUser): Promise<void> {
  const now = new Date();
  const changed =
    invitationState(member, now) === 'VALID'
      ? await em.nativeUpdate(
          AdminUserSchema,
          { id: member.id, status: 'invited', invitationUsedAt: null, invitationExpiresAt: { $gt: now } },
          { status: 'active', invitationUsedAt: now },
        )
      : 0;
  if (changed === 0) {
    throw new SsoSignInError('sso_invitation_expired');
  }
  await em.refresh(member);
}

export async function ssoSignIn(
  em: Em,
  settings: OidcConfig,
  identity: SsoIdentity,
  sessionTtlSeconds: number,
): Promise<SsoSignedIn> {
  if (!identity.emailVerified || identity.email.length > EMAIL_MAX_LENGTH) {
    throw new SsoSignInError('sso_email_unverified');
  }
  if (!emailDomainAllowed(settings, identity.email)) {
    throw new SsoSignInError('sso_domain_not_allowed');
  }
  let member = await findAdminByEmail(em, identity.email);
  let joined: SsoSignedIn['joined'] = null;
  if (member === null) {
    if (settings.newMembers !== 'member') {
      throw new SsoSignInError('sso_unknown_member');
    }
    await requireAccountOf(em, null, identity);
    member = await newMember(em, identity);
    joined = 'created';
  } else if (member.status === 'disabled') {
    throw new SsoSignInError('sso_member_disabled');
  } else {
    await requireAccountOf(em, member, identity);
    if (member.status === 'invited') {
      await acceptInvitation(em, member);
      joined = 'activated';
    }
  }
  const methods = await secondFactorMethods(em, member);
  if (methods.length > 0) {
    const challenge = await issueChallenge(em, member.id, { issuer: identity.issuer, subject: identity.subject });
    return { member, joined, outcome: { kind: 'second-factor', challenge, methods } };
  }
  await linkAccount(em, member.id, identity);
  const session = await startSession(em, member.id, sessionTtlSeconds);
  return { member, joined, outcome: { kind: 'session', session } };
}
