// Secrets: generating them, judging whether one is strong enough for production, and parsing the
// 32-byte token encryption key. No function here ever puts a secret's value into an error message.
import { randomBytes } from 'node:crypto';

export const ENCRYPTION_KEY_BYTES = 32;
export const MIN_SECRET_BYTES = 32;

export type SecretEncoding = 'hex' | 'base64url';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A fresh random secret of `bytes` bytes, hex or base64url (both safe in `.env` without quotes). */
export function generateSecret(bytes = MIN_SECRET_BYTES, encoding: SecretEncoding = 'base64url'): string {
  if (!Number.isInteger(bytes) || bytes < 1) {
    throw new RangeError('generateSecret: bytes must be a positive integer');
  }
  return randomBytes(bytes).toString(encoding);
}

/**
 * Decodes base64 (with or without padding) or base64url, strictly: Node's decoder silently skips
 * characters outside the alphabet and ignores trailing bits, so the input must be exactly the
 * canonical encoding of what it decodes to. Returns null for anything else.
 */
export function decodeStrictBase64(value: string): Buffer | null {
  if (BASE64.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    const canonical = bytes.toString('base64');
    return canonical === value || canonical.replace(/=+$/, '') === value ? bytes : null;
  }
  if (BASE64URL.test(value)) {
    const bytes = Buffer.from(value, 'base64url');
    return bytes.toString('base64url') === value ? bytes : null;
  }
  return null;
}

/**
 * Parses `TOKEN_ENCRYPTION_KEY`: exactly 64 hex characters, or base64/base64url of exactly 32 bytes.
 * Hex is tried first because 64 hex characters are also valid base64 (of 48 bytes). The error names
 * the variable and the decoded length, never the value.
 */
export function parseEncryptionKey(value: string, name = 'TOKEN_ENCRYPTION_KEY'): Buffer {
  const expected = `${name} must be a ${ENCRYPTION_KEY_BYTES}-byte key given as 64 hex characters or base64`;
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`${expected}; it is empty`);
  }
  if (HEX_KEY.test(value)) {
    return Buffer.from(value, 'hex');
  }
  const bytes = decodeStrictBase64(value);
  if (bytes === null) {
    throw new Error(`${expected}; it is neither`);
  }
  if (bytes.length !== ENCRYPTION_KEY_BYTES) {
    throw new Error(`${expected}; it decodes to ${bytes.length} bytes`);
  }
  return bytes;
}

/**
 * A pragmatic estimate, in bytes, of the entropy of a secret. It cannot measure randomness; it
 * refuses what is obviously not random and counts the rest by its encoding:
 * - a string that repeats a shorter pattern (`aaaa…`, `abcabc…`) counts 0;
 * - hex (only hex digits) counts 4 bits a character, if it has at least 8 distinct
 *   characters (64 random hex digits have fewer with negligible probability);
 * - anything else (base64, base64url, passphrases) counts 6 bits a character, exactly what base64
 *   carries, if it has at least 16 distinct characters; otherwise 0.
 * So 64 hex characters, or 43 base64url / 44 base64 characters (32 bytes), are the shortest that pass
 * the default 32-byte bar, and `generateSecret()` always passes it.
 */
export function estimateSecretStrength(value: string): number {
  if (typeof value !== 'string' || value.length === 0 || isPeriodic(value)) {
    return 0;
  }
  const distinct = new Set(value).size;
  if (HEX.test(value)) {
    return distinct >= 8 ? Math.floor(value.length / 2) : 0;
  }
  return distinct >= 16 ? Math.floor((value.length * 6) / 8) : 0;
}

/** Production refuses secrets under `minBytes` of estimated entropy (see `estimateSecretStrength`). */
export function isStrongSecret(value: string | undefined, minBytes = MIN_SECRET_BYTES): boolean {
  return value !== undefined && estimateSecretStrength(value) >= minBytes;
}

/** True when `value` is a shorter string repeated: it then appears inside itself doubled, early. */
function isPeriodic(value: string): boolean {
  return (value + value).indexOf(value, 1) < value.length;
}
