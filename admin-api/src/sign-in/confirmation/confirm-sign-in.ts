// Confirming a sign-in (docs/sign-in.md#recent-sign-in): the member proves it is them again with
// their password, a code of their authenticator app (or an unused recovery code) or a passkey, and
// gets a new session and admin token, started now, so the operations that need a recent sign-in are
// open to them for RECENT_SIGN_IN_SECONDS. The console session it was sent with ends: someone who
// copied that cookie gains nothing from the member's confirmation.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { endSession, startSession } from '../../access/admin-sessions.js';
import type { RelyingParty } from '../passkeys/relying-party.js';
import { passwordSignInForbidden } from '../password/password-sign-in-policy.js';
import { useSecondFactorCode } from '../two-factor/second-factor.js';
import { hasSecondFactor } from '../../access/second-factors.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, forbidden, unauthenticated } from '../../errors.js';
import { verifyPasskeyConfirmation } from '../passkeys/passkey-confirmation.js';
import { countCodeAttempt, secondFactorAttempt } from '../two-factor/code-attempts.js';
import { checkCurrentPassword } from '../password/change-password.js';
import type { LoggedIn } from '../../access/issue-sign-in.js';

/** What proved it: `code` while a code has not been found to be a TOTP or a recovery code. */
export type ConfirmationMethod = 'password' | 'code' | 'totp' | 'recovery_code' | 'passkey';

export interface ConfirmSignInRequest {
  adminId: string;
  password: string | null;
  code: string | null;
  passkeyResponse: unknown;
  /** Only a passkey needs it; refused at an IP address, so asked for only then. */
  relyingParty: () => RelyingParty;
  /** The console session the request came with, ended once confirmed (none for an admin token). */
  sessionSecret: string | undefined;
  clientAddress: string;
}

async function prove(em: Em, deps: AdminDeps, request: ConfirmSignInRequest): Promise<ConfirmationMethod> {
  const { adminId, password, code, passkeyResponse } = request;
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  if (password !== null) {
    if (await passwordSignInForbidden(em, deps.services.config, admin)) {
      throw forbidden('Your team signs in with single sign-on: confirm with a code or a passkey, or sign in again');
    }
    await checkCurrentPassword(em, deps, adminId, password, 'password');
    return 'password';
  }
  if (code !== null) {
    if (!hasSecondFactor(admin)) {
      throw badUserInput('code', 'cannot confirm your sign-in: you have no authenticator app set up');
    }
    await countCodeAttempt(deps, [secondFactorAttempt(adminId)]);
    const method = await useSecondFactorCode(em, deps.secondFactorKeys, admin, code);
    if (method === null) {
      throw badUserInput('code', 'is not a current code of your authenticator app or an unused recovery code');
    }
    await deps.loginAttempts.release(secondFactorAttempt(adminId));
    return method;
  }
  await verifyPasskeyConfirmation(em, deps, request.relyingParty(), {
    adminId,
    clientAddress: request.clientAddress,
    answer: passkeyResponse,
  });
  return 'passkey';
}

/**
 * Checks the one proof given and starts a new session and admin token; `outcome.method` says which
 * proof was tried (and, once it held, which it was) for the audit entry.
 */
export async function confirmSignIn(
  em: Em,
  deps: AdminDeps,
  request: ConfirmSignInRequest,
  outcome: { method: ConfirmationMethod | null; succeeded: boolean },
): Promise<LoggedIn> {
  const given = [request.password, request.code, request.passkeyResponse].filter((value) => value != null);
  if (given.length !== 1) {
    throw badUserInput('password', 'or `code` or `passkeyResponse`: give exactly one of the three');
  }
  outcome.method = request.password !== null ? 'password' : request.code !== null ? 'code' : 'passkey';
  outcome.method = await prove(em, deps, request);
  const admin = await em.findOneOrFail(AdminUserSchema, { id: request.adminId });
  if (request.sessionSecret !== undefined) {
    await endSession(em, request.sessionSecret);
  }
  const session = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
  outcome.succeeded = true;
  return { issued: deps.adminTokens.issue(admin.id, admin.passwordChangedAt), session };
}
