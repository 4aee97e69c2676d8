import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { endChallenges } from './challenges.js';
import { generateRecoveryCodes } from './recovery-codes.js';
import { storeRecoveryCodes } from './second-factor.js';
import { totpStep } from './totp.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, unauthenticated } from '../../errors.js';
import { countCodeAttempt, secondFactorAttempt } from './code-attempts.js';

/**
 * Turns the pending secret into the member's second factor when `code` is its current code, and
 * answers ten new recovery codes (only their hashes are kept). The code's step is the last one
 * used, so the same code cannot sign in afterwards.
 */
export async function confirmTwoFactor(em: Em, deps: AdminDeps, adminId: string, code: string): Promise<string[]> {
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  if (admin.totpPendingSecret === null || admin.totpPendingSecret === undefined) {
    throw badUserInput('code', 'confirms nothing: start an enrolment first (startTwoFactorEnrolment)');
  }
  await countCodeAttempt(deps, [secondFactorAttempt(admin.id)]);
  const step = totpStep(deps.secondFactorKeys.box.open(admin.totpPendingSecret), code);
  if (step === null) {
    throw badUserInput('code', 'is not the current code of your authenticator app');
  }
  await deps.loginAttempts.release(secondFactorAttempt(admin.id));
  const codes = generateRecoveryCodes();
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(
      AdminUserSchema,
      { id: admin.id },
      { totpSecret: admin.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: new Date(), totpLastStep: step },
    );
    await storeRecoveryCodes(tx, deps.secondFactorKeys, admin.id, codes);
    await endChallenges(tx, admin.id);
  });
  return codes;
}
