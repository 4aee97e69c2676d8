import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeySchema, type AdminUser } from '@intake/shared/entities';
import { endChallenges } from './challenges.js';
import { clearSecondFactor } from './second-factor.js';
import { hasSecondFactor } from '../../access/second-factors.js';
import { notFound } from '../../errors.js';
import { recordMemberChange, type ActingMember } from '../../access/acting-member.js';
import { requireResetRank } from '../../access/member-rank.js';

export interface RemovedSecondFactors {
  hadSecondFactor: boolean;
  passkeysRemoved: number;
}

/**
 * Removes every second factor of the member: the TOTP secret, the recovery codes, every passkey and
 * the pending sign-in challenges, so the password alone signs in. The one removal behind an owner's
 * reset and `npm run admin -- reset-two-factor`; each caller records its own audit entry.
 */
export async function removeSecondFactors(tx: Em, member: AdminUser): Promise<RemovedSecondFactors> {
  const passkeysRemoved = await tx.nativeDelete(PasskeySchema, { admin: member.id });
  const hadSecondFactor = hasSecondFactor(member) || passkeysRemoved > 0;
  await clearSecondFactor(tx, member.id);
  await endChallenges(tx, member.id);
  return { hadSecondFactor, passkeysRemoved };
}

/**
 * An owner, or an admin for a member below them, removes a member's second factor (a lost phone and
 * lost recovery codes): the TOTP secret, the recovery codes and every passkey. The member signs in
 * with their password alone, or, when the team requires a second factor, is taken to enrolment.
 * Recorded as `member.twoFactorReset`.
 */
export async function resetMemberTwoFactor(em: Em, acting: ActingMember, memberId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const member = await tx.findOne(AdminUserSchema, { id: memberId });
    if (member === null) {
      throw notFound('Member');
    }
    requireResetRank(acting.caller, member, 'id');
    const removed = await removeSecondFactors(tx, member);
    await recordMemberChange(tx, acting, 'member.twoFactorReset', member, { ...removed });
  });
}
