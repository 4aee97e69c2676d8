// The random secrets of sign-in challenges (the second factor's, after a password, and the WebAuthn
// ones of passkeys): 32 random bytes in base64url, of which the database keeps only the sha256.
import { createHash, randomBytes } from 'node:crypto';

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newChallengeSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashChallengeSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `value` could be one: anything else is refused before the database is asked. */
export function looksLikeChallengeSecret(value: string): boolean {
  return SECRET_SHAPE.test(value);
}
