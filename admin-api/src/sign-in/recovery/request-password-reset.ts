// "Forgot password?" (public): an active member of the address gets a reset link by e-mail. The
// answer is the same whether the address belongs to a member or not, so it tells nobody which
// addresses exist; asks are limited per address asked for and per client. Without SMTP_URL no
// e-mail can go out: the console says whom to ask instead (an owner or admin, or `npm run admin`).
import { setTimeout } from 'node:timers/promises';
import type { Em } from '@intake/shared/db';
import type { AdminDeps } from '../../context.js';
import { normalizeEmail } from '../../access/login-policy.js';
import { EMAIL_MAX_LENGTH, findAdminByEmail } from '../../access/find-admin.js';
import { rateLimited } from '../../errors.js';
import { issuePasswordResetLink } from './password-reset-link.js';

/**
 * No answer to an ask comes sooner than this after it: a member's address costs a transaction (its
 * link and its e-mail in the outbox) and an unknown one nothing, and that difference alone would
 * tell which addresses are members'. Longer than the transaction takes on a busy machine.
 */
export const RESET_ANSWER_FLOOR_MS = 400;

export interface ResetRequest {
  email: string;
  clientAddress: string;
  requestId: string;
}

/** The member a link was sent to, or null (for the audit entry only, never for the answer). */
export async function requestPasswordReset(
  em: Em,
  deps: AdminDeps,
  request: ResetRequest,
): Promise<{ memberId: string; email: string } | null> {
  const email = normalizeEmail(request.email).slice(0, EMAIL_MAX_LENGTH + 1);
  const decision = await deps.loginAttempts.consume([
    { limit: 'password-reset-account', key: email },
    { limit: 'password-reset-address', key: request.clientAddress },
  ]);
  if (!decision.allowed) {
    throw rateLimited(decision.retryAfterSeconds);
  }
  if (!deps.services.config.delivery.smtpUrl) {
    return null;
  }
  const answerAt = Date.now() + RESET_ANSWER_FLOOR_MS;
  try {
    return await sendResetLink(em, deps, email, request.requestId);
  } finally {
    await setTimeout(Math.max(0, answerAt - Date.now()));
  }
}

async function sendResetLink(
  em: Em,
  deps: AdminDeps,
  email: string,
  requestId: string,
): Promise<{ memberId: string; email: string } | null> {
  const member = await findAdminByEmail(em, email);
  // A disabled or invited member gets nothing: neither could sign in with a new password.
  if (member === null || member.status !== 'active') {
    deps.services.logger.info({ requestId }, 'password reset asked for no active member');
    return null;
  }
  await em.transactional((tx) => issuePasswordResetLink(tx, deps, member));
  return { memberId: member.id, email: member.email };
}
