import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { countChallengeFailure, findChallenge, useChallenge } from './challenges.js';
import { useSecondFactorCode, type SecondFactorMethod } from './second-factor.js';
import type { AdminDeps } from '../../context.js';
import { unauthenticated } from '../../errors.js';
import { linkAccount } from '../sso/account-link.js';
import { loginAttemptKeys } from '../password/login.js';
import { signIn, type LoggedIn } from '../../access/issue-sign-in.js';
import { countCodeAttempt, secondFactorAttempt } from './code-attempts.js';

const INVALID = 'Invalid or expired code';

export interface VerifySecondFactorRequest {
  challenge: string;
  code: string;
  clientAddress: string;
  requestId: string;
}

export interface SecondFactorOutcome {
  /** The member the challenge was for, once known (for the audit entry, success or not). */
  member: { id: string; email: string } | null;
  method: SecondFactorMethod | null;
  /** What came before the code: a password, or a single sign-on (`oidc`). */
  firstFactor: 'password' | 'oidc';
}

/**
 * The second step of a sign-in: the challenge `login` (or a single sign-on) answered with, and a TOTP
 * code or a recovery code. After a single sign-on, the member is then linked to the provider's account. Wrong codes count against the same limits as wrong passwords (per e-mail and address, per
 * address) and the member's own `second-factor` limit; a challenge ends after a few wrong codes.
 * Every failure is the same UNAUTHENTICATED answer, whatever was wrong.
 */
export async function verifySecondFactor(
  em: Em,
  deps: AdminDeps,
  request: VerifySecondFactorRequest,
  outcome: SecondFactorOutcome,
): Promise<LoggedIn> {
  const { logger } = deps.services;
  const { requestId, clientAddress } = request;
  const found = await findChallenge(em, request.challenge);
  const admin = found === null ? null : await em.findOne(AdminUserSchema, { id: found.adminId, status: 'active' });
  if (found === null || admin === null) {
    // No e-mail to count against: the address alone (an unknown challenge is a guess like any other).
    await countCodeAttempt(deps, [loginAttemptKeys('', clientAddress).address]);
    logger.info({ requestId, clientAddress }, 'second factor failed: no such challenge');
    throw unauthenticated(INVALID);
  }
  outcome.member = { id: admin.id, email: admin.email };
  outcome.firstFactor = found.sso === null ? 'password' : 'oidc';
  const { account, address } = loginAttemptKeys(admin.email, clientAddress);
  await countCodeAttempt(deps, [account, address, secondFactorAttempt(admin.id)]);
  const method = await useSecondFactorCode(em, deps.secondFactorKeys, admin, request.code);
  outcome.method = method;
  if (method === null) {
    await countChallengeFailure(em, found.id);
    logger.info({ requestId, clientAddress }, 'second factor failed');
    throw unauthenticated(INVALID);
  }
  if (!(await useChallenge(em, found.id))) {
    // Another request used this challenge at the same moment.
    throw unauthenticated(INVALID);
  }
  if (found.sso !== null) {
    // Refused (as a wrong code) when another account was linked to the member meanwhile.
    await linkAccount(em, admin.id, found.sso).catch(() => {
      outcome.method = null;
      throw unauthenticated(INVALID);
    });
  }
  await deps.loginAttempts.reset(account);
  await deps.loginAttempts.release(address);
  await deps.loginAttempts.release(secondFactorAttempt(admin.id));
  return signIn(em, deps, admin, { withPassword: found.sso === null });
}
