// Keys derived from one secret with HKDF, one per purpose: a key made for one use (a download
// signature, an admin token) is worth nothing for another.
import { hkdfSync } from 'node:crypto';

export function deriveKey(secret: string | Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32));
}
