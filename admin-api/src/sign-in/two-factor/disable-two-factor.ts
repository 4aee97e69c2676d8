import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { endChallenges } from './challenges.js';
import { generateRecoveryCodes } from './recovery-codes.js';
import { clearSecondFactor, storeRecoveryCodes, useSecondFactorCode } from './second-factor.js';
import { hasSecondFactor } from '../../access/second-factors.js';
import { requireFactorLeftWhenHeld } from '../../access/held-by-policy.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, unauthenticated } from '../../errors.js';
import { countCodeAttempt, secondFactorAttempt } from './code-attempts.js';

/** The signed-in member with a second factor, after one of their codes (TOTP or recovery) was used up. */
async function provenMember(em: Em, deps: AdminDeps, adminId: string, code: string): Promise<AdminUser> {
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  if (!hasSecondFactor(admin)) {
    throw badUserInput('code', 'is not needed: two-factor sign-in is off');
  }
  await countCodeAttempt(deps, [secondFactorAttempt(admin.id)]);
  if ((await useSecondFactorCode(em, deps.secondFactorKeys, admin, code)) === null) {
    throw badUserInput('code', 'is not a current code of your authenticator app or an unused recovery code');
  }
  await deps.loginAttempts.release(secondFactorAttempt(admin.id));
  return admin;
}

/** Turns the member's second factor off (a code proves it is them, not someone at an open session). */
export async function disableTwoFactor(em: Em, deps: AdminDeps, adminId: string, code: string): Promise<void> {
  await requireFactorLeftWhenHeld(em, adminId, { totp: false, passkeysRemoved: 0 });
  const admin = await provenMember(em, deps, adminId, code);
  await em.transactional(async (tx) => {
    await clearSecondFactor(tx, admin.id);
    await endChallenges(tx, admin.id);
  });
}

/** Ten new recovery codes in place of every old one. */
export async function regenerateRecoveryCodes(
  em: Em,
  deps: AdminDeps,
  adminId: string,
  code: string,
): Promise<string[]> {
  const admin = await provenMember(em, deps, adminId, code);
  const codes = generateRecoveryCodes();
  await em.transactional((tx) => storeRecoveryCodes(tx, deps.secondFactorKeys, admin.id, codes));
  return codes;
}
