import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { dummyPasswordHash } from '@intake/shared/password';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { AdminDeps } from '../../context.js';
import { findAdminByEmail } from '../../access/find-admin.js';
import { badUserInput } from '../../errors.js';
import type { InviteMemberInput } from './invitation.input.js';
import { issueInvitationLink, type IssuedLink } from './invitation-link.js';
import { describeGrants, replaceGrants, requireGrantableSites, requireOwnerFor } from '../members/member-rules.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

function duplicateEmail(): Error {
  return badUserInput('input.email', 'is already the e-mail of a member');
}

/**
 * Adds a member with status `invited` (the role rules of createMember) and issues their link. Until
 * they accept they have no password of their own, and an invited member cannot sign in.
 */
export async function inviteMember(
  em: Em,
  deps: AdminDeps,
  acting: ActingMember,
  input: InviteMemberInput,
): Promise<{ member: AdminUser } & IssuedLink> {
  requireOwnerFor(acting.caller, input.role);
  const grants = input.grants ?? [];
  // The process's hash of random bytes nobody knows (what unknown e-mails are checked against): no
  // password signs in as an invited member, and an invitation costs no scrypt of its own.
  const passwordHash = await dummyPasswordHash();
  try {
    return await em.transactional(async (tx) => {
      if ((await findAdminByEmail(tx, input.email)) !== null) {
        throw duplicateEmail();
      }
      await requireGrantableSites(tx, input.role, grants, 'input.grants');
      const member = tx.create(AdminUserSchema, {
        email: input.email,
        name: input.name ?? '',
        role: input.role,
        status: 'invited',
        passwordHash,
      });
      await tx.flush();
      await replaceGrants(tx, member.id, grants);
      const issued = await issueInvitationLink(tx, deps, member);
      // Role and grants only: the link and its token never enter the log.
      await recordMemberChange(tx, acting, 'member.invited', member, {
        role: input.role,
        grants: describeGrants(grants),
        emailSent: issued.emailSent,
      });
      return { member, ...issued };
    });
  } catch (error) {
    // Two invitations of one e-mail at once: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) {
      throw duplicateEmail();
    }
    throw error;
  }
}
