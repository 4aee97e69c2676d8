import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword, verifyPassword } from '@intake/shared/password';
import { endAllSessions, startSession } from '../../auth/admin-sessions.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, rateLimited, unauthenticated } from '../../schema/errors.js';
import { PASSWORD_MAX_LENGTH } from '../../validation/fields.js';
import type { LoggedIn } from './login.js';

/**
 * Replaces an administrator's password after checking the current one (under the brute-force
 * limit): every admin token and console session issued before stops working, and a new token and
 * session are started.
 */
export async function changePassword(
  em: Em,
  deps: AdminDeps,
  adminId: string,
  passwords: { current: string; next: string },
): Promise<LoggedIn> {
  const attempt = { limit: 'change-password', key: adminId } as const;
  const decision = await deps.loginAttempts.consume([attempt]);
  if (!decision.allowed) {
    throw rateLimited(decision.retryAfterSeconds);
  }
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  const matches =
    passwords.current.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(passwords.current, admin.passwordHash));
  if (!matches) {
    throw badUserInput('currentPassword', 'is not correct');
  }
  await deps.loginAttempts.reset(attempt);
  admin.passwordHash = await hashPassword(passwords.next);
  // Strictly later than before, even within one millisecond: it is the version tokens carry.
  admin.passwordChangedAt = new Date(Math.max(Date.now(), admin.passwordChangedAt.getTime() + 1));
  await em.flush();
  await endAllSessions(em, admin.id);
  const session = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
  return { issued: deps.adminTokens.issue(admin.id, admin.passwordChangedAt), session };
}
