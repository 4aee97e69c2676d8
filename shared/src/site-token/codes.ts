// Random codes. base64url so they sit in URLs and tokens without escaping.
import { randomBytes } from 'node:crypto';

/** A site's control code: 256 random bits (43 chars). Rotating it revokes every token of the site. */
export function generateControlCode(): string {
  return randomBytes(32).toString('base64url');
}

/** A form's public code in `/api/v1/send/:code`: 144 random bits, 24 URL-safe chars, no padding. */
export function generateFormCode(): string {
  return randomBytes(18).toString('base64url');
}
