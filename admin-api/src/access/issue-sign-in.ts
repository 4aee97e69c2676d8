// What a member who proved who they are receives, however they proved it (password, second factor,
// passkey, an invitation accepted): a bearer token for API clients and a console session.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import type { AdminDeps } from '../context.js';
import { startSession, type StartedSession } from './admin-sessions.js';
import type { IssuedAdminToken } from './admin-token.js';

export interface LoggedIn {
  /** The bearer token for API clients. */
  issued: IssuedAdminToken;
  /** The console's session, for its HttpOnly cookie. */
  session: StartedSession;
}

/**
 * A session and a bearer token for the member; `withPassword` when the proof included their
 * password (a password change lists the passkeys added since: change-password.ts).
 */
export async function signIn(
  em: Em,
  deps: AdminDeps,
  admin: AdminUser,
  { withPassword }: { withPassword: boolean },
): Promise<LoggedIn> {
  if (withPassword) {
    await em.nativeUpdate(AdminUserSchema, { id: admin.id }, { passwordSignedInAt: new Date() });
  }
  const issued = deps.adminTokens.issue(admin.id, admin.passwordChangedAt);
  const session = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
  return { issued, session };
}
