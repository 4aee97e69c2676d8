// An owner or admin sends a member a reset link (a forgotten password): by e-mail with SMTP_URL set,
// otherwise answered to hand over. The member's password holds until the link is used.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import type { AdminDeps } from '../../context.js';
import { badUserInput, notFound } from '../../errors.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';
import { requireResetRank } from '../../access/member-rank.js';
import { issuePasswordResetLink, type IssuedResetLink } from './password-reset-link.js';

export async function resetMemberPassword(
  em: Em,
  deps: AdminDeps,
  acting: ActingMember,
  memberId: string,
): Promise<IssuedResetLink> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId });
    if (member === null) {
      throw notFound('Member');
    }
    requireResetRank(acting.caller, member, 'id');
    if (member.status !== 'active') {
      throw badUserInput('id', `is ${member.status}: only an active member can reset their password`);
    }
    const issued = await issuePasswordResetLink(tx, deps, member);
    // Whether it was e-mailed, never the link.
    await recordMemberChange(tx, acting, 'member.passwordResetSent', member, { emailSent: issued.emailSent });
    return issued;
  });
}
