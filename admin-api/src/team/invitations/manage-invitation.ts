// Resending and revoking an invitation: both act on a member who is still invited (BAD_USER_INPUT on
// `id` otherwise), and only an owner may touch an invited owner.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { LockMode } from '@mikro-orm/core';
import type { AdminDeps } from '../../context.js';
import { badUserInput, notFound } from '../../errors.js';
import { issueInvitationLink, type IssuedLink } from './invitation-link.js';
import { requireOwnerFor } from '../members/member-rules.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

// The row is locked until the transaction ends: an acceptance at the same moment waits, then finds
// the link replaced or the member gone (or this waits and finds the member joined).
function requireInvited(member: AdminUser): void {
  if (member.status !== 'invited') {
    throw badUserInput('id', `is not an invited member (the member is ${member.status})`);
  }
}

/** A new link for the invited member; the link before stops working at once. */
export async function resendInvitation(
  em: Em,
  deps: AdminDeps,
  acting: ActingMember,
  memberId: string,
): Promise<{ member: AdminUser } & IssuedLink> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (member === null) {
      throw notFound('Member');
    }
    requireInvited(member);
    requireOwnerFor(acting.caller, member.role);
    const issued = await issueInvitationLink(tx, deps, member);
    await recordMemberChange(tx, acting, 'member.invitation_resent', member, { emailSent: issued.emailSent });
    return { member, ...issued };
  });
}

/**
 * Removes the invited member, and with them their link (its hash), their grants and the e-mail if it
 * has not gone out yet. False when there was no such member.
 */
export async function revokeInvitation(em: Em, acting: ActingMember, memberId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (member === null) {
      return false;
    }
    requireInvited(member);
    requireOwnerFor(acting.caller, member.role);
    await tx.nativeDelete(AdminUserSchema, { id: member.id });
    await recordMemberChange(tx, acting, 'member.invitation_revoked', member, { role: member.role });
    return true;
  });
}
