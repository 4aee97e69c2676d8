import type { AdminDeps } from '../../context.js';
import { rateLimited } from '../../errors.js';

/**
 * Counts one use of an invitation link (looking it up or accepting it) against the caller's address,
 * with the login limits' counters (docs/teams.md): RATE_LIMITED past the limit.
 */
export async function consumeInvitationAttempt(deps: AdminDeps, clientAddress: string): Promise<void> {
  const decision = await deps.loginAttempts.consume([{ limit: 'invitation-address', key: clientAddress }]);
  if (!decision.allowed) {
    deps.services.logger.warn({ clientAddress }, 'invitation refused: too many attempts');
    throw rateLimited(decision.retryAfterSeconds);
  }
}
