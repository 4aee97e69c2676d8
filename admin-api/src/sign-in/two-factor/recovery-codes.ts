// Recovery codes: ten per enrolment, shown once, each usable once. A code is 10 random base32
// characters (50 bits) written `xxxxx-xxxxx`. Stored as an HMAC-SHA256 under a key derived from
// JWT_SECRET rather than with scrypt: the codes are random (no dictionary to try), the key keeps a
// database dump alone from testing guesses offline, and checking one is a single indexed lookup
// instead of ten slow hashes per attempt (docs/decisions/recovery-code-hashing.md).
import { createHmac, randomInt } from 'node:crypto';
import { deriveKey } from '../../access/keys.js';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // 32 symbols, without 0/o, 1/l
const HALF = 5;
const KEY_INFO = 'intake recovery code';
const CODE_SHAPE = new RegExp(`^[${ALPHABET}]{${HALF * 2}}$`);

export function generateRecoveryCodes(): string[] {
  const one = () => Array.from({ length: HALF * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = one();
    return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
  });
}

/** What a person typed, in the stored form (lower case, no dash or spaces); null when it cannot be a code. */
export function normalizeRecoveryCode(code: string): string | null {
  const compact = code.replace(/[\s-]+/g, '').toLowerCase();
  return CODE_SHAPE.test(compact) ? compact : null;
}

export type RecoveryCodeHasher = (code: string) => string;

/** Hashes a normalized code under a key derived from JWT_SECRET. */
export function createRecoveryCodeHasher(jwtSecret: string): RecoveryCodeHasher {
  const key = deriveKey(jwtSecret, KEY_INFO);
  return (code) => createHmac('sha256', key).update(code, 'utf8').digest('hex');
}
