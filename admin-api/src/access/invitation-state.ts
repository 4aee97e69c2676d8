// Whether an invited member's invitation still holds: accepting its link and a first single sign-on
// both make the member only while it does (not used, not revoked, not expired).
import type { AdminUser } from '@intake/shared/entities';

export type InvitationState = 'VALID' | 'USED' | 'EXPIRED' | 'REVOKED';

export function invitationState(member: AdminUser | null, now = new Date()): InvitationState {
  if (member === null) {
    return 'REVOKED';
  }
  if (member.invitationUsedAt) {
    return 'USED';
  }
  // Made active some other way (`npm run admin -- enable`): the link no longer makes anyone a member.
  if (member.status !== 'invited') {
    return 'REVOKED';
  }
  const expiresAt = member.invitationExpiresAt ?? null;
  return expiresAt === null || expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'VALID';
}
