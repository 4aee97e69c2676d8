import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { unauthenticated } from '../../errors.js';
import type { UpdateAccountInput } from './account.input.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

/**
 * Renames the caller's own account (`member.renamed`, with the names before and after; a name is
 * no secret, and member.removed keeps it too). Nothing else of the account changes here: role,
 * status and grants are for `members:manage`.
 */
export async function updateAccount(em: Em, acting: ActingMember, input: UpdateAccountInput): Promise<AdminUser> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: acting.caller.id });
    if (member === null) {
      throw unauthenticated();
    }
    const before = member.name;
    if (before !== input.name) {
      member.name = input.name;
      await tx.flush();
      await recordMemberChange(tx, acting, 'member.renamed', member, { from: before, to: input.name });
    }
    return member;
  });
}
