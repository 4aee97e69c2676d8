// Setting a new password with a reset link (public: the link is the credential). The link works
// once, before it expires, for an active member; it ends every console session and admin token of
// the member and every other link. It signs nobody in, and leaves the second factor as it is: the
// next sign-in asks for the new password and then, as before, for the code or passkey.
import { hashInvitationToken } from '@intake/shared/delivery';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasswordResetSchema, type AdminUser } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { endAllSessions } from '../../access/admin-sessions.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, rateLimited } from '../../errors.js';
import { endPasswordResets } from './password-reset-link.js';

const DEAD_LINK = 'is not a valid reset link: it was used, replaced by a newer one or has expired; ask for a new one';

export async function resetPassword(
  em: Em,
  deps: AdminDeps,
  request: { token: string; password: string; clientAddress: string },
): Promise<AdminUser> {
  const decision = await deps.loginAttempts.consume([{ limit: 'password-reset-use', key: request.clientAddress }]);
  if (!decision.allowed) {
    throw rateLimited(decision.retryAfterSeconds);
  }
  const tokenHash = hashInvitationToken(request.token);
  const passwordHash = await hashPassword(request.password);
  return em.transactional(async (tx) => {
    const now = new Date();
    const reset = await tx.findOne(PasswordResetSchema, { tokenHash }, { populate: ['admin'] });
    // Used only while it still holds: of two uses at once, one wins.
    const claimed =
      reset === null
        ? 0
        : await tx.nativeUpdate(
            PasswordResetSchema,
            { id: reset.id, usedAt: null, expiresAt: { $gt: now } },
            { usedAt: now },
          );
    const member = reset?.admin;
    if (claimed === 0 || member === undefined || member.status !== 'active') {
      throw badUserInput('token', DEAD_LINK);
    }
    await tx.nativeUpdate(
      AdminUserSchema,
      { id: member.id },
      // Strictly later than before, even within one millisecond: it is the version tokens carry.
      { passwordHash, passwordChangedAt: new Date(Math.max(now.getTime(), member.passwordChangedAt.getTime() + 1)) },
    );
    await endPasswordResets(tx, member.id);
    await endAllSessions(tx, member.id);
    return member;
  });
}
