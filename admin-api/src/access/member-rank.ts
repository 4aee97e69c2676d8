// Who may reset another member's way in (a password link, a second factor): an owner anyone but
// themselves, an admin only a member below them. Their own account has its own pages.
import type { MemberRole } from '@intake/shared/entities';
import { badUserInput, forbidden } from '../errors.js';
import type { Member } from './principal.js';

const RANK: Record<MemberRole, number> = { owner: 3, admin: 2, member: 1 };

/** FORBIDDEN unless the caller outranks the target (an owner may reset another owner); BAD_USER_INPUT on themselves. */
export function requireResetRank(caller: Member, target: { id: string; role: MemberRole }, field: string): void {
  if (caller.id === target.id) {
    throw badUserInput(field, 'is your own account: change your password or second factor on your account page');
  }
  if (caller.role !== 'owner' && RANK[caller.role] <= RANK[target.role]) {
    throw forbidden('Only an owner may reset an owner or an admin; an admin resets members');
  }
}
