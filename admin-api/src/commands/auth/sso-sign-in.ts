// Signs in the person an OpenID provider vouched for: the provider's verified e-mail names a
// member of the team (active, or invited: signing in accepts the invitation); an unknown person is
// refused or, with OIDC_NEW_MEMBERS=member, joins as a member with no site grants.
import { randomBytes } from 'node:crypto';
import type { OidcConfig } from '@intake/shared/config';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { startSession, type StartedSession } from '../../auth/admin-sessions.js';
import { EMAIL_MAX_LENGTH, findAdminByEmail } from '../../queries/auth/find-admin.js';
import { emailDomainAllowed } from '../../sso/email-domain.js';
import type { SsoIdentity } from '../../sso/oidc-client.js';
import { SsoSignInError } from '../../sso/sign-in-failure.js';

const NAME_MAX_LENGTH = 200;

export interface SsoSignedIn {
  member: AdminUser;
  session: StartedSession;
  /** `created`: a new member; `activated`: an invited one who accepted by signing in. */
  joined: 'created' | 'activated' | null;
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
    member = await newMember(em, identity);
    joined = 'created';
  } else if (member.status === 'disabled') {
    throw new SsoSignInError('sso_member_disabled');
  } else if (member.status === 'invited') {
    // The provider proved the invitee controls the invited address: that accepts the invitation,
    // and its link then says "used" to whoever opens it.
    member.status = 'active';
    member.invitationUsedAt = new Date();
    await em.flush();
    joined = 'activated';
  }
  const session = await startSession(em, member.id, sessionTtlSeconds);
  return { member, session, joined };
}
