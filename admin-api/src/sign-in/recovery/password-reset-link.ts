// A new single-use reset link for a member: only its hash and expiry are stored (every earlier link
// of the member stops), and the link goes into the outbox sealed (SMTP_URL set: the worker writes
// the e-mail and wipes it), or back to an owner or admin to hand over when no e-mail can be sent.
import type { Em } from '@intake/shared/db';
import {
  enqueuePasswordResetEmail,
  generateInvitationToken,
  hashInvitationToken,
  PASSWORD_RESET_REQUESTED,
  PASSWORD_RESET_TTL_MS,
  passwordResetLink,
  passwordResetLinkBox,
} from '@intake/shared/delivery';
import { AdminUserSchema, DeliverySchema, PasswordResetSchema, type AdminUser } from '@intake/shared/entities';
import type { AdminDeps } from '../../context.js';

export interface IssuedResetLink {
  /** Null when it went out by e-mail. */
  link: string | null;
  emailSent: boolean;
  expiresAt: Date;
}

/** Ends every unused link of the member, and drops their reset e-mails not yet sent. */
export async function endPasswordResets(tx: Em, memberId: string): Promise<void> {
  await tx.nativeUpdate(PasswordResetSchema, { admin: memberId, usedAt: null }, { usedAt: new Date() });
  await tx.nativeDelete(DeliverySchema, { member: memberId, eventType: PASSWORD_RESET_REQUESTED, status: 'pending' });
}

export async function issuePasswordResetLink(tx: Em, deps: AdminDeps, member: AdminUser): Promise<IssuedResetLink> {
  const { config } = deps.services;
  const token = generateInvitationToken();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + PASSWORD_RESET_TTL_MS);
  await endPasswordResets(tx, member.id);
  tx.create(PasswordResetSchema, {
    admin: tx.getReference(AdminUserSchema, member.id),
    tokenHash: hashInvitationToken(token),
    createdAt,
    expiresAt,
  });
  if (!config.delivery.smtpUrl) {
    // Handed to the signed-in owner or admin who asked: the address they use is right.
    await tx.flush();
    return { link: passwordResetLink(deps.publicOrigin(), token), emailSent: false, expiresAt };
  }
  // E-mailed, maybe on anyone's request: a forged Host must not send the token to another server.
  const link = passwordResetLink(deps.mailedLinkOrigin(), token);
  const sealedLink = passwordResetLinkBox(config.tokenEncryptionKey).seal(link);
  enqueuePasswordResetEmail(tx, { memberId: member.id, email: member.email, sealedLink });
  await tx.flush();
  return { link: null, emailSent: true, expiresAt };
}
