// Signed, short-lived download links: `/files/<id>?expires=<unix>&sig=<base64url HMAC-SHA256 of
// "<id>.<expires>">` with a key derived from JWT_SECRET. The link is the only credential, so it
// expires quickly (DOWNLOAD_URL_TTL_SECONDS) and is checked in constant time.
// They live in shared because the admin API serves them and the delivery worker puts them into
// webhook payloads: both must sign the same way.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from './derive-key.js';

export const DOWNLOAD_KEY_INFO = 'intake download';

const EXPIRES_SHAPE = /^\d{1,12}$/;
const SIGNATURE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface DownloadLinks {
  /** An absolute URL for the file, valid for the configured time from `now`. */
  urlFor(fileId: string, now?: Date): string;
  /** True when the signature matches and the link has not expired. */
  verify(fileId: string, expires: unknown, signature: unknown, now?: Date): boolean;
}

export interface DownloadLinkOptions {
  jwtSecret: string;
  ttlSeconds: number;
  /** The admin API's public origin (`http://host:port`), read when a link is made. */
  publicOrigin: () => string;
}

export function createDownloadLinks(options: DownloadLinkOptions): DownloadLinks {
  const key = deriveKey(options.jwtSecret, DOWNLOAD_KEY_INFO);
  const sign = (fileId: string, expires: string): Buffer =>
    createHmac('sha256', key).update(`${fileId}.${expires}`).digest();

  return {
    urlFor(fileId, now = new Date()) {
      const expires = String(Math.floor(now.getTime() / 1000) + options.ttlSeconds);
      const signature = sign(fileId, expires).toString('base64url');
      const origin = options.publicOrigin().replace(/\/+$/, '');
      return `${origin}/files/${encodeURIComponent(fileId)}?expires=${expires}&sig=${signature}`;
    },
    verify(fileId, expires, signature, now = new Date()) {
      if (
        typeof expires !== 'string' ||
        typeof signature !== 'string' ||
        !EXPIRES_SHAPE.test(expires) ||
        !SIGNATURE_SHAPE.test(signature)
      ) {
        return false;
      }
      const presented = Buffer.from(signature, 'base64url');
      const expected = sign(fileId, expires);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        return false;
      }
      return Number(expires) >= Math.floor(now.getTime() / 1000);
    },
  };
}
