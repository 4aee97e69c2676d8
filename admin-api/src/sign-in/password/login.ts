import type { Em } from '@intake/shared/db';
import type { AdminUser } from '@intake/shared/entities';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '@intake/shared/password';
import { passwordSignInForbidden } from './password-sign-in-policy.js';
import { normalizeEmail } from '../../access/login-policy.js';
import type { AdminDeps } from '../../context.js';
import { forbidden, rateLimited, secondFactorRequired, unauthenticated, type SecondFactorKind } from '../../errors.js';
import { hasPasskey, hasSecondFactor } from '../../access/second-factors.js';
import { issueChallenge } from '../two-factor/challenges.js';
import { PASSWORD_MAX_LENGTH } from '../../validation/fields.js';
import { EMAIL_MAX_LENGTH, findAdminByEmail } from '../../access/find-admin.js';
import { signIn, type LoggedIn } from '../../access/issue-sign-in.js';

const INVALID_LOGIN = 'Invalid e-mail or password';

export interface LoginRequest {
  email: string;
  password: string;
  /** The client address as the proxy settings read it: the brute-force limits count per address. */
  clientAddress: string;
  requestId: string;
}

/**
 * Checks an administrator's e-mail and password under the brute-force limits and starts a session.
 * Every failure is the same UNAUTHENTICATED answer, whether the e-mail exists or not. A member with
 * a second factor gets SECOND_FACTOR_REQUIRED with a challenge instead (verify-second-factor.ts).
 */
export async function login(em: Em, deps: AdminDeps, request: LoginRequest): Promise<LoggedIn> {
  const { logger, config } = deps.services;
  const { requestId, clientAddress, password } = request;
  const normalizedEmail = normalizeEmail(request.email).slice(0, EMAIL_MAX_LENGTH + 1);
  const { account, address } = loginAttemptKeys(normalizedEmail, clientAddress);
  const decision = await deps.loginAttempts.consume([account, address]);
  if (!decision.allowed) {
    logger.warn({ requestId, clientAddress }, 'login refused: too many attempts');
    throw rateLimited(decision.retryAfterSeconds);
  }

  const admin = await findAdminByEmail(em, normalizedEmail);
  const acceptable = password.length <= PASSWORD_MAX_LENGTH;
  // An unknown e-mail still costs one scrypt verification, so timing does not tell which
  // addresses exist.
  const matches = await verifyPassword(acceptable ? password : '', admin?.passwordHash ?? (await dummyPasswordHash()));
  // Only an active member signs in; a disabled one is told nothing more than a wrong password.
  if (admin === null || !acceptable || !matches || admin.status !== 'active') {
    logger.info({ requestId, clientAddress }, 'login failed');
    throw unauthenticated(INVALID_LOGIN);
  }
  // Told only once the password proved who is asking: the team signs in through its provider.
  if (await passwordSignInForbidden(em, config, admin)) {
    logger.info({ requestId, clientAddress }, 'login refused: the team policy requires single sign-on');
    throw forbidden('Your team signs in with single sign-on: use the single sign-on button');
  }
  if (passwordNeedsRehash(admin.passwordHash)) {
    // A hash made with older (weaker) parameters: the password is at hand only now. Its tokens
    // stay valid: the password itself did not change, so passwordChangedAt does not either.
    admin.passwordHash = await hashPassword(password);
    await em.flush();
    logger.info({ requestId }, 'password re-hashed with the current parameters');
  }
  const methods = await secondFactorMethods(em, admin);
  if (methods.length > 0) {
    // The attempt stays counted until the code is right too: otherwise a right password would
    // wipe the count of wrong codes before it (docs/sign-in.md).
    const { challenge, expiresAt } = await issueChallenge(em, admin.id);
    logger.info({ requestId }, 'login: second factor required');
    throw secondFactorRequired(challenge, expiresAt, methods);
  }
  await deps.loginAttempts.reset(account);
  await deps.loginAttempts.release(address);
  return signIn(em, deps, admin, { withPassword: true });
}

/** What may follow a right password (or a single sign-on): a code (with recovery codes) and, with a passkey registered, a passkey. */
export async function secondFactorMethods(em: Em, admin: AdminUser): Promise<SecondFactorKind[]> {
  return [
    ...(hasSecondFactor(admin) ? (['totp'] as const) : []),
    ...((await hasPasskey(em, admin.id)) ? (['passkey'] as const) : []),
  ];
}

/** The brute-force keys of a sign-in by this e-mail from this address. */
export function loginAttemptKeys(normalizedEmail: string, clientAddress: string) {
  return {
    account: { limit: 'login-account', key: `${normalizedEmail}|${clientAddress}` },
    address: { limit: 'login-address', key: clientAddress },
  } as const;
}
