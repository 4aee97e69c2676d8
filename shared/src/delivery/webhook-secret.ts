// Webhook signing secrets: `whsec_<base64 of 32 random bytes>`, the Standard Webhooks shape that
// receivers' libraries accept as it is. They are stored sealed with AES-256-GCM under a key derived
// from TOKEN_ENCRYPTION_KEY, so a database dump alone cannot forge deliveries.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '../download-links/derive-key.js';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_INFO = 'intake webhook secret';

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key a secret stands for (the bytes after `whsec_`). */
export function webhookSigningKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}

/** `info` keeps each kind of secret under its own derived key (webhook secrets by default). */
export function createSecretBox(tokenEncryptionKey: Buffer, info: string = KEY_INFO): SecretBox {
  const key = deriveKey(tokenEncryptionKey, info);
  return {
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, ciphertext, tag] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || ciphertext === undefined || tag === undefined) {
        throw new Error('sealed secret has an unknown shape');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
