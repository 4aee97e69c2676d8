import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { badUserInput, notFound } from '../../errors.js';
import type { UpdateMemberInput } from './member.input.js';
import {
  describeGrants,
  endCredentials,
  grantsForAudit,
  replaceGrants,
  requireAnotherActiveOwner,
  requireGrantableSites,
  requireOwnerFor,
} from './member-rules.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

/**
 * Changes a member's name, role, grants or status (NOT_FOUND when there is no such member). A role
 * other than `member` has no grants: promoting a member drops theirs. Disabling ends every session
 * and token at once.
 */
export async function updateMember(
  em: Em,
  acting: ActingMember,
  memberId: string,
  input: UpdateMemberInput,
): Promise<AdminUser> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId });
    if (member === null) {
      throw notFound('Member');
    }
    if (member.status === 'invited' && input.status !== undefined) {
      // Active only by accepting the link, where they choose their password; a change here would
      // leave an account nobody can sign in to, and a link that no longer works.
      throw badUserInput('input.status', 'an invited member joins by accepting their invitation: resend or revoke it');
    }
    requireOwnerFor(acting.caller, member.role, input.role);
    const role = input.role ?? member.role;
    if (role !== 'owner') {
      await requireAnotherActiveOwner(tx, member, 'input.role');
    }
    if (input.status === 'disabled') {
      await requireAnotherActiveOwner(tx, member, 'input.status');
    }
    const grantsBefore = await grantsForAudit(tx, member.id);
    const grants = input.grants ?? (role === 'member' ? null : []);
    if (grants !== null) {
      await requireGrantableSites(tx, role, grants, 'input.grants');
    }

    const roleBefore = member.role;
    const statusBefore = member.status;
    if (input.name !== undefined) {
      member.name = input.name;
    }
    member.role = role;
    if (input.status !== undefined) {
      member.status = input.status;
    }
    await tx.flush();
    if (grants !== null) {
      await replaceGrants(tx, member.id, grants);
    }

    if (roleBefore !== member.role) {
      await recordMemberChange(tx, acting, 'member.roleChanged', member, { from: roleBefore, to: member.role });
    }
    const grantsAfter = grants === null ? grantsBefore : describeGrants(grants);
    if (grantsAfter.join() !== grantsBefore.join()) {
      await recordMemberChange(tx, acting, 'member.grantsChanged', member, { from: grantsBefore, to: grantsAfter });
    }
    if (statusBefore !== member.status) {
      if (member.status === 'disabled') {
        await endCredentials(tx, member);
      }
      await recordMemberChange(tx, acting, member.status === 'disabled' ? 'member.disabled' : 'member.enabled', member);
    }
    return member;
  });
}
