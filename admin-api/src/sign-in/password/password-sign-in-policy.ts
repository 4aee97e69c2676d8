// Whether the team's policy lets this member sign in with a password: a member who can use single
// sign-on (it is configured and their e-mail's domain is allowed) is refused a password when an
// owner forbade it. Owners always keep their password: the way in when the provider is down or
// misconfigured (and `npm run admin -- reset-password` the way back when that password is lost).
import type { Config } from '@intake/shared/config';
import type { Em } from '@intake/shared/db';
import type { AdminUser } from '@intake/shared/entities';
import { readSsoPolicy } from '../sso/sso-policy.js';
import { emailDomainAllowed } from '../sso/email-domain.js';

export async function passwordSignInForbidden(
  em: Em,
  config: Pick<Config, 'oidc'>,
  member: Pick<AdminUser, 'role' | 'email'>,
): Promise<boolean> {
  if (config.oidc === undefined || member.role === 'owner' || !emailDomainAllowed(config.oidc, member.email)) {
    return false;
  }
  return !(await readSsoPolicy(em)).passwordSignIn;
}
