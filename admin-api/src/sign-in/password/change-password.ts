import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeySchema, type Passkey } from '@intake/shared/entities';
import { hashPassword, verifyPassword } from '@intake/shared/password';
import { endAllSessions, startSession } from '../../access/admin-sessions.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, rateLimited, unauthenticated } from '../../errors.js';
import { PASSWORD_MAX_LENGTH } from '../../validation/fields.js';
import type { LoggedIn } from '../../access/issue-sign-in.js';

export interface PasswordChanged extends LoggedIn {
  /**
   * The member's passkeys added since their last sign-in with the password (every one when there
   * was none): what a stolen session may have added, for the member to review and remove.
   */
  passkeysSincePasswordSignIn: Passkey[];
}

/**
 * Checks a password of the member (under the brute-force limit of current-password checks, shared
 * with confirmSignIn): BAD_USER_INPUT on `field` when it is wrong, RATE_LIMITED past the limit.
 */
export async function checkCurrentPassword(
  em: Em,
  deps: AdminDeps,
  adminId: string,
  password: string,
  field: string,
): Promise<void> {
  const attempt = { limit: 'change-password', key: adminId } as const;
  const decision = await deps.loginAttempts.consume([attempt]);
  if (!decision.allowed) {
    throw rateLimited(decision.retryAfterSeconds);
  }
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  const matches = password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(password, admin.passwordHash));
  if (!matches) {
    throw badUserInput(field, 'is not correct');
  }
  await deps.loginAttempts.reset(attempt);
}

/**
 * Replaces an administrator's password after checking the current one: every admin token and
 * console session issued before stops working, and a new token and session are started. It counts
 * as a sign-in with the password (the next change lists only passkeys added after it).
 */
export async function changePassword(
  em: Em,
  deps: AdminDeps,
  adminId: string,
  passwords: { current: string; next: string },
): Promise<PasswordChanged> {
  await checkCurrentPassword(em, deps, adminId, passwords.current, 'currentPassword');
  const admin = await em.findOneOrFail(AdminUserSchema, { id: adminId });
  const since = admin.passwordSignedInAt ?? null;
  const passkeysSincePasswordSignIn = await em.find(
    PasskeySchema,
    { admin: admin.id, ...(since === null ? {} : { createdAt: { $gt: since } }) },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  admin.passwordHash = await hashPassword(passwords.next);
  // Strictly later than before, even within one millisecond: it is the version tokens carry.
  admin.passwordChangedAt = new Date(Math.max(Date.now(), admin.passwordChangedAt.getTime() + 1));
  admin.passwordSignedInAt = new Date();
  await em.flush();
  await endAllSessions(em, admin.id);
  const session = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
  return {
    issued: deps.adminTokens.issue(admin.id, admin.passwordChangedAt),
    session,
    passkeysSincePasswordSignIn,
  };
}
