import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { notFound } from '../../errors.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';

/**
 * An owner unlinks a member from their account at the OpenID provider (docs/single-sign-on.md): the
 * next account to sign in with the member's verified e-mail is linked instead (a new account at the
 * provider, or another provider). Recorded as `member.ssoUnlinked` with `wasLinked`.
 */
export async function unlinkSsoAccount(em: Em, acting: ActingMember, memberId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId });
    if (member === null) {
      throw notFound('Member');
    }
    const wasLinked = Boolean(member.ssoSubject);
    member.ssoIssuer = null;
    member.ssoSubject = null;
    await tx.flush();
    await recordMemberChange(tx, acting, 'member.ssoUnlinked', member, { wasLinked });
  });
}
