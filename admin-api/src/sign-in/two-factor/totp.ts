// Time-based one-time codes (RFC 6238) with otpauth: SHA-1, 6 digits, 30-second steps, what every
// authenticator app reads from the otpauth:// URI. A code is checked at the current step and one
// step either side (otpauth's default window of 1: clocks drift and people type slowly); a code two
// steps old or more is refused. Each step's code is accepted once: the caller stores the step of
// the last accepted code and refuses any step up to it (see acceptTotpStep).
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Intake';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that are still accepted (the RFC's recommended one step of drift). */
export const TOTP_WINDOW = 1;
const CODE_SHAPE = /^\d{6}$/;

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh secret (160 random bits, RFC 4226's recommendation), base32 as apps show it. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** What a person typed, without spaces (apps show `123 456`); null when it is no 6-digit code. */
export function normalizeTotpCode(code: string): string | null {
  const compact = code.replace(/\s+/g, '');
  return CODE_SHAPE.test(compact) ? compact : null;
}

/** The time step the code belongs to, or null when it is wrong (or outside the window). */
export function totpStep(secretBase32: string, code: string, now: Date = new Date()): number | null {
  const token = normalizeTotpCode(code);
  if (token === null) {
    return null;
  }
  const totp = totpOf(secretBase32, 'check');
  const timestamp = now.getTime();
  const delta = totp.validate({ token, timestamp, window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}
