import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { endCredentials, requireAnotherActiveOwner, requireOwnerFor } from './member-rules.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

/**
 * Deletes a member: their sessions and grants go with the row, their API tokens are revoked. Audit
 * entries copy the actor's e-mail rather than reference the row, so what they did stays readable
 * under their name. False when there was no such member.
 */
export async function removeMember(em: Em, acting: ActingMember, memberId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId });
    if (member === null) {
      return false;
    }
    requireOwnerFor(acting.caller, member.role);
    await requireAnotherActiveOwner(tx, member, 'id');
    await endCredentials(tx, member);
    await tx.nativeDelete(AdminUserSchema, { id: member.id });
    await recordMemberChange(tx, acting, 'member.removed', member, { name: member.name, role: member.role });
    return true;
  });
}
