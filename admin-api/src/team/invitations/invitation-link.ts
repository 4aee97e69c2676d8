// A new single-use link for an invited member: only its hash and its expiry go on the member's row
// (a link issued before stops working), and the link itself goes either into the outbox, sealed
// (SMTP_URL set: the worker writes the e-mail and wipes it), or back to the caller to hand over.
import type { Em } from '@intake/shared/db';
import {
  enqueueInvitationEmail,
  generateInvitationToken,
  hashInvitationToken,
  INVITATION_TTL_MS,
  invitationLink,
  invitationLinkBox,
} from '@intake/shared/delivery';
import { DeliverySchema, type AdminUser } from '@intake/shared/entities';
import type { AdminDeps } from '../../context.js';

export interface IssuedLink {
  /** Null when it went out by e-mail. */
  link: string | null;
  emailSent: boolean;
}

export async function issueInvitationLink(tx: Em, deps: AdminDeps, member: AdminUser): Promise<IssuedLink> {
  const { config } = deps.services;
  const token = generateInvitationToken();
  const now = new Date();
  member.invitationTokenHash = hashInvitationToken(token);
  member.invitedAt = now;
  member.invitationExpiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  member.invitationUsedAt = null;
  // An e-mail of an earlier link that has not gone out yet would only carry a dead link.
  await tx.nativeDelete(DeliverySchema, { member: member.id, status: 'pending' });
  const link = invitationLink(deps.publicOrigin(), token);
  if (!config.delivery.smtpUrl) {
    await tx.flush();
    return { link, emailSent: false };
  }
  const sealedLink = invitationLinkBox(config.tokenEncryptionKey).seal(link);
  enqueueInvitationEmail(tx, { memberId: member.id, email: member.email, sealedLink });
  await tx.flush();
  return { link: null, emailSent: true };
}
