// How a member can confirm a sign-in (docs/sign-in.md#recent-sign-in): the password unless the
// single sign-on policy forbids it, a code, a passkey, or the provider again.
import type { Config } from '@intake/shared/config';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import type { ProofMethod } from '../../access/recent-sign-in.js';
import { hasPasskey, hasSecondFactor } from '../../access/second-factors.js';
import { passwordSignInForbidden } from '../password/password-sign-in-policy.js';
import { emailDomainAllowed } from '../sso/email-domain.js';

/** The ways this member can confirm a sign-in, in the order the console offers them. */
export async function proofMethods(em: Em, config: Pick<Config, 'oidc'>, adminId: string): Promise<ProofMethod[]> {
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    return [];
  }
  return [
    ...((await passwordSignInForbidden(em, config, admin)) ? [] : (['password'] as const)),
    ...(hasSecondFactor(admin) ? (['totp'] as const) : []),
    ...((await hasPasskey(em, admin.id)) ? (['passkey'] as const) : []),
    ...(config.oidc !== undefined && emailDomainAllowed(config.oidc, admin.email) ? (['sso'] as const) : []),
  ];
}
