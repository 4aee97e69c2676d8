// Issues and decodes site tokens: a HS256 JWT whose payload carries the site id and control code
// sealed with AES-256-CBC (see cipher.ts for why CBC without a MAC is acceptable here).
import { parseSiteClaims, serializeSiteClaims, type SiteTokenClaims } from './claims.js';
import { open, seal } from './cipher.js';
import { signEnvelope, verifyEnvelope } from './envelope.js';

export interface SiteTokenCodecOptions {
  /** HMAC key of the JWT (`JWT_SECRET`). */
  jwtSecret: string;
  /** 32-byte AES key (`TOKEN_ENCRYPTION_KEY`, parsed by `parseEncryptionKey`). */
  encryptionKey: Buffer;
}

export interface SiteTokenCodec {
  issue(siteId: string, controlCode: string): string;
  /** Throws `SiteTokenError` with a reason for any token it does not accept. */
  decode(token: string): SiteTokenClaims;
}

export function createSiteTokenCodec({ jwtSecret, encryptionKey }: SiteTokenCodecOptions): SiteTokenCodec {
  if (typeof jwtSecret !== 'string' || jwtSecret.length === 0) {
    throw new Error('createSiteTokenCodec: jwtSecret must be a non-empty string');
  }
  if (!Buffer.isBuffer(encryptionKey) || encryptionKey.length !== 32) {
    throw new Error('createSiteTokenCodec: encryptionKey must be a 32-byte Buffer');
  }
  // A private copy: a caller reusing or zeroing its buffer must not change our key.
  const key = Buffer.from(encryptionKey);

  return {
    issue(siteId, controlCode) {
      return signEnvelope(seal(serializeSiteClaims({ siteId, controlCode }), key), jwtSecret);
    },
    decode(token) {
      // Order matters: the HMAC is verified before anything is decrypted.
      return parseSiteClaims(open(verifyEnvelope(token, jwtSecret), key));
    },
  };
}
