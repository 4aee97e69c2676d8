// Invitation e-mails through the outbox. The link carries a random token of which the database keeps
// only the SHA-256 (admin_users.invitation_token_hash). The e-mail must still hold the link, and it
// is written by the worker, later and maybe in another process: so the link waits in the delivery
// row sealed with AES-256-GCM under a key derived from TOKEN_ENCRYPTION_KEY (as webhook secrets are,
// under a key of its own), and the worker wipes it once the delivery is done (sent, or failed for
// good). A database dump alone holds no usable link. See docs/decisions/invitation-links.md.
import { createHash, randomBytes } from 'node:crypto';
import type { Em } from '../db/orm.js';
import { AdminUserSchema, DeliverySchema, type Delivery } from '../entities/index.js';
import { createSecretBox, type SecretBox } from './webhook-secret.js';

export const MEMBER_INVITED = 'member.invited';
/** How long an invitation link holds. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

const TOKEN_BYTES = 32;
const KEY_INFO = 'intake invitation link';

/** 256 random bits, URL-safe: far beyond guessing, even without the attempt limit in front. */
export function generateInvitationToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What the database keeps of a token: a plain SHA-256 is enough for 256 random bits. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `<origin>/invitation#<token>`: in the fragment, the token never reaches a server's access log. */
export function invitationLink(origin: string, token: string): string {
  return `${new URL('/invitation', origin).href}#${token}`;
}

export function invitationLinkBox(tokenEncryptionKey: Buffer): SecretBox {
  return createSecretBox(tokenEncryptionKey, KEY_INFO);
}

/** What an invitation delivery's payload holds until the worker wipes it. */
export interface InvitationPayload {
  sealedLink: string;
}

export function isInvitationPayload(payload: unknown): payload is InvitationPayload {
  return (
    typeof payload === 'object' && payload !== null && typeof (payload as InvitationPayload).sealedLink === 'string'
  );
}

/** The invitation e-mail of a member, due at once; the caller flushes. */
export function enqueueInvitationEmail(
  em: Em,
  invitation: { memberId: string; email: string; sealedLink: string },
): Delivery {
  return em.create(DeliverySchema, {
    channel: 'email',
    form: null,
    member: em.getReference(AdminUserSchema, invitation.memberId),
    submission: null,
    eventType: MEMBER_INVITED,
    recipients: [invitation.email],
    payload: { sealedLink: invitation.sealedLink } satisfies InvitationPayload,
    nextAttemptAt: new Date(),
  });
}
