import type { Em } from '@intake/shared/db';
import { SSO_POLICY_ID, SsoPolicySchema, type SsoPolicy } from '@intake/shared/entities';

/** The team's single sign-on policy (one row, made by its migration). */
export async function readSsoPolicy(em: Em): Promise<SsoPolicy> {
  return em.findOneOrFail(SsoPolicySchema, { id: SSO_POLICY_ID });
}
