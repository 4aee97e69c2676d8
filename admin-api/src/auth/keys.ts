// Keys derived from JWT_SECRET with HKDF, one per purpose: a site token (signed with JWT_SECRET
// itself) can never pass as an admin token, and a download signature is worth nothing elsewhere.
import { hkdfSync } from 'node:crypto';

export const ADMIN_TOKEN_KEY_INFO = 'intake admin token';
export const DOWNLOAD_KEY_INFO = 'intake download';

export function deriveKey(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32));
}
