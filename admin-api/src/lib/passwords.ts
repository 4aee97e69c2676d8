import { randomBytes } from 'node:crypto';

/** 24 characters from 144 random bits, URL-safe: typed once, then changed by its owner. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
