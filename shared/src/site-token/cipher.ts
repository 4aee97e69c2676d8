// AES-256-CBC sealing of a site token's private claims, as `<base64url(iv)>.<base64url(ciphertext)>`.
//
// CBC carries no MAC of its own. That is acceptable here only because the sealed string travels
// inside the JWT, whose HS256 HMAC covers the IV and the ciphertext and is checked BEFORE `open` runs:
// without JWT_SECRET nobody can hand us a chosen ciphertext, so there is no padding oracle and no bit
// flipping. Never call `open` on a string whose signature has not been verified.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SiteTokenError } from './errors.js';

const CIPHER = 'aes-256-cbc';
const IV_BYTES = 16;
const BLOCK_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Encrypts `plaintext` under `key` with a fresh random IV, so equal plaintexts never look alike. */
export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${iv.toString('base64url')}.${ciphertext.toString('base64url')}`;
}

/**
 * Decrypts a sealed string. A badly formed envelope is 'payload'; a ciphertext that does not decrypt
 * (wrong key, hence bad padding) is 'decrypt'. Returns the raw plaintext bytes.
 */
export function open(sealed: string, key: Buffer): Buffer {
  const parts = sealed.split('.');
  if (parts.length !== 2) {
    throw new SiteTokenError('payload');
  }
  const iv = decodeBase64Url(parts[0] ?? '');
  const ciphertext = decodeBase64Url(parts[1] ?? '');
  if (
    iv === null ||
    ciphertext === null ||
    iv.length !== IV_BYTES ||
    ciphertext.length === 0 ||
    ciphertext.length % BLOCK_BYTES !== 0
  ) {
    throw new SiteTokenError('payload');
  }
  try {
    const decipher = createDecipheriv(CIPHER, key, iv);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    // OpenSSL's message ("bad decrypt") says nothing useful; the reason is enough.
    throw new SiteTokenError('decrypt');
  }
}

/** Canonical base64url only: Node's decoder would otherwise skip stray characters silently. */
function decodeBase64Url(value: string): Buffer | null {
  if (!BASE64URL.test(value)) {
    return null;
  }
  const bytes = Buffer.from(value, 'base64url');
  return bytes.toString('base64url') === value ? bytes : null;
}
