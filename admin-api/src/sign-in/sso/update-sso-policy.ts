import type { Em } from '@intake/shared/db';
import type { SsoPolicy } from '@intake/shared/entities';
import { readSsoPolicy } from './sso-policy.js';

/** Allows or forbids passwords to people who can use single sign-on (the audit plugin records it). */
export async function updateSsoPolicy(em: Em, passwordSignIn: boolean): Promise<SsoPolicy> {
  const policy = await readSsoPolicy(em);
  policy.passwordSignIn = passwordSignIn;
  await em.flush();
  return policy;
}
