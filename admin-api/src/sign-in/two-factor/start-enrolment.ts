import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import QRCode from 'qrcode';
import { hasSecondFactor } from '../../access/second-factors.js';
import { generateTotpSecret, totpUri } from './totp.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput, unauthenticated } from '../../errors.js';

export interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrCodeSvg: string;
}

/**
 * A new TOTP secret for the signed-in member, kept sealed as pending until a first code confirms
 * it (confirm-two-factor.ts). Starting again replaces a pending secret; a member who already has a
 * second factor turns it off first.
 */
export async function startTwoFactorEnrolment(em: Em, deps: AdminDeps, adminId: string): Promise<Enrolment> {
  const admin = await em.findOne(AdminUserSchema, { id: adminId });
  if (admin === null) {
    throw unauthenticated();
  }
  if (hasSecondFactor(admin)) {
    throw badUserInput('code', 'is not needed: two-factor sign-in is already on (turn it off first to enrol anew)');
  }
  const secret = generateTotpSecret();
  admin.totpPendingSecret = deps.secondFactorKeys.box.seal(secret);
  await em.flush();
  const otpauthUri = totpUri(secret, admin.email);
  const qrCodeSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri, qrCodeSvg };
}
