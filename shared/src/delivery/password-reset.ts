// Password reset e-mails through the outbox, as invitations go (invitation.ts): a random token of
// which the database keeps only the sha256 (password_resets.token_hash), the link sealed in the
// delivery row under a key of its own until the worker has sent it and wiped it.
import type { Em } from '../db/orm.js';
import { AdminUserSchema, DeliverySchema, type Delivery } from '../entities/index.js';
import { createSecretBox, type SecretBox } from './webhook-secret.js';

export const PASSWORD_RESET_REQUESTED = 'member.passwordResetRequested';
/** How long a reset link holds: long enough to open an e-mail, short enough to die unused. */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;

const KEY_INFO = 'intake password reset link';

/** `<origin>/reset-password#<token>`: in the fragment, the token never reaches a server's access log. */
export function passwordResetLink(origin: string, token: string): string {
  return `${new URL('/reset-password', origin).href}#${token}`;
}

export function passwordResetLinkBox(tokenEncryptionKey: Buffer): SecretBox {
  return createSecretBox(tokenEncryptionKey, KEY_INFO);
}

/** The reset e-mail of a member, due at once; the caller flushes. */
export function enqueuePasswordResetEmail(
  em: Em,
  reset: { memberId: string; email: string; sealedLink: string },
): Delivery {
  return em.create(DeliverySchema, {
    channel: 'email',
    form: null,
    member: em.getReference(AdminUserSchema, reset.memberId),
    submission: null,
    eventType: PASSWORD_RESET_REQUESTED,
    recipients: [reset.email],
    payload: { sealedLink: reset.sealedLink },
    nextAttemptAt: new Date(),
  });
}
