// What an invitation link says. Only the current link of an invited member is known (by its hash):
// a link replaced by a resend, one whose member was revoked, and one never issued all answer
// REVOKED, with nothing about anyone. A used link keeps its hash, so a second use is told USED.
import { hashInvitationToken } from '@intake/shared/delivery';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { invitationState, type InvitationState } from '../../access/invitation-state.js';

export interface FoundInvitation {
  /** Null when no member has this link. */
  member: AdminUser | null;
  state: InvitationState;
}

export async function findInvitation(em: Em, token: string): Promise<FoundInvitation> {
  const member = await em.findOne(AdminUserSchema, { invitationTokenHash: hashInvitationToken(token) });
  return { member, state: invitationState(member) };
}
