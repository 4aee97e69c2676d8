// A member's second factor as stored: the TOTP secret sealed like webhook secrets (AES-256-GCM under
// a key derived from TOKEN_ENCRYPTION_KEY, its own derivation label), and the check of a code,
// which is either a TOTP code (accepted once: its time step must be later than the last accepted
// one, written atomically so two requests cannot both use it) or an unused recovery code (marked
// used atomically). No function here logs or returns a secret or a code.
import type { Em } from '@intake/shared/db';
import { createSecretBox, type SecretBox } from '@intake/shared/delivery';
import { AdminUserSchema, RecoveryCodeSchema, type AdminUser } from '@intake/shared/entities';
import type { RecoveryCodeHasher } from './recovery-codes.js';
import { normalizeRecoveryCode } from './recovery-codes.js';
import { normalizeTotpCode, totpStep } from './totp.js';
import { hasSecondFactor } from '../../access/second-factors.js';

const SECRET_BOX_INFO = 'intake totp secret';

export function totpSecretBox(tokenEncryptionKey: Buffer): SecretBox {
  return createSecretBox(tokenEncryptionKey, SECRET_BOX_INFO);
}

export type SecondFactorMethod = 'totp' | 'recovery_code';

export interface SecondFactorKeys {
  box: SecretBox;
  hashRecoveryCode: RecoveryCodeHasher;
}

/** Accepts a TOTP step once: true when it is later than the last accepted step (and is now that step). */
async function acceptTotpStep(em: Em, adminId: string, step: number): Promise<boolean> {
  const updated = await em.nativeUpdate(
    AdminUserSchema,
    { id: adminId, $or: [{ totpLastStep: null }, { totpLastStep: { $lt: step } }] },
    { totpLastStep: step },
  );
  return updated === 1;
}

/**
 * Checks a code of a member with a confirmed second factor and uses it up: the method it was, or
 * null when it is wrong, replayed, too old, or an already used recovery code.
 */
export async function useSecondFactorCode(
  em: Em,
  keys: SecondFactorKeys,
  admin: AdminUser,
  code: string,
  now = new Date(),
): Promise<SecondFactorMethod | null> {
  if (!hasSecondFactor(admin)) {
    return null;
  }
  if (normalizeTotpCode(code) !== null) {
    const step = totpStep(keys.box.open(admin.totpSecret!), code, now);
    return step !== null && (await acceptTotpStep(em, admin.id, step)) ? 'totp' : null;
  }
  const recovery = normalizeRecoveryCode(code);
  if (recovery === null) {
    return null;
  }
  const used = await em.nativeUpdate(
    RecoveryCodeSchema,
    { admin: admin.id, codeHash: keys.hashRecoveryCode(recovery), usedAt: null },
    { usedAt: now },
  );
  return used === 1 ? 'recovery_code' : null;
}

/** Replaces the member's recovery codes with the hashes of `codes`. */
export async function storeRecoveryCodes(
  em: Em,
  keys: SecondFactorKeys,
  adminId: string,
  codes: readonly string[],
): Promise<void> {
  await em.nativeDelete(RecoveryCodeSchema, { admin: adminId });
  for (const code of codes) {
    em.create(RecoveryCodeSchema, {
      admin: em.getReference(AdminUserSchema, adminId),
      codeHash: keys.hashRecoveryCode(normalizeRecoveryCode(code)!),
    });
  }
  await em.flush();
}

/** Removes the member's second factor entirely (disable, or an owner's reset). */
export async function clearSecondFactor(em: Em, adminId: string): Promise<void> {
  await em.nativeDelete(RecoveryCodeSchema, { admin: adminId });
  await em.nativeUpdate(
    AdminUserSchema,
    { id: adminId },
    { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null },
  );
}

/** How many of the member's recovery codes are still unused (told after a sign-in with one). */
export function unusedRecoveryCodes(em: Em, adminId: string): Promise<number> {
  return em.count(RecoveryCodeSchema, { admin: adminId, usedAt: null });
}
