// The audit chain's HMAC key: derived (HKDF-SHA256) from TOKEN_ENCRYPTION_KEY, the server's one
// 32-byte random key, so it needs no variable of its own and every process of a deployment derives
// the same key. Separate `info` keeps it independent of the key's other use (site token payloads).
import { createHmac, hkdfSync } from 'node:crypto';

export interface AuditChainKey {
  /** 32 bytes; never logged, never stored. */
  key: Buffer;
  /** A fingerprint of the key (not the key): written into the chain's head to tell a changed key from tampering. */
  keyId: string;
}

const SALT = 'intake audit chain';
const INFO = 'intake audit chain HMAC-SHA256 v1';

export function deriveAuditChainKey(tokenEncryptionKey: Buffer): AuditChainKey {
  const key = Buffer.from(hkdfSync('sha256', tokenEncryptionKey, SALT, INFO, 32));
  const keyId = createHmac('sha256', key).update('key id').digest('hex').slice(0, 16);
  return { key, keyId };
}
