import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { findAdminByEmail } from '../../access/find-admin.js';
import { badUserInput } from '../../errors.js';
import type { CreateMemberInput } from './member.input.js';
import { generatePassword } from '../../lib/passwords.js';
import { describeGrants, replaceGrants, requireGrantableSites, requireOwnerFor } from './member-rules.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

function duplicateEmail(): Error {
  return badUserInput('input.email', 'is already the e-mail of a member');
}

/**
 * Adds an active member with a generated password, returned here once (only its hash is stored).
 * The creator hands the password over; inviteMember (invite-member.ts) lets the person choose theirs.
 */
export async function createMember(
  em: Em,
  acting: ActingMember,
  input: CreateMemberInput,
): Promise<{ member: AdminUser; password: string }> {
  requireOwnerFor(acting.caller, input.role);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    const member = await em.transactional(async (tx) => {
      if ((await findAdminByEmail(tx, input.email)) !== null) {
        throw duplicateEmail();
      }
      await requireGrantableSites(tx, input.role, input.grants, 'input.grants');
      const created = tx.create(AdminUserSchema, {
        email: input.email,
        name: input.name,
        role: input.role,
        status: 'active',
        passwordHash,
      });
      await tx.flush();
      await replaceGrants(tx, created.id, input.grants);
      await recordMemberChange(tx, acting, 'member.created', created, {
        role: input.role,
        grants: describeGrants(input.grants),
      });
      return created;
    });
    return { member, password };
  } catch (error) {
    // Two creations of one e-mail at once: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) {
      throw duplicateEmail();
    }
    throw error;
  }
}
