// A form's CAPTCHA secret key: write-only in the admin API and stored sealed, like webhook secrets,
// under its own key derived from TOKEN_ENCRYPTION_KEY. Only the gateway opens it, to verify answers.
import { createSecretBox, type SecretBox } from '../delivery/webhook-secret.js';

const KEY_INFO = 'intake captcha secret';

export function createCaptchaSecretBox(tokenEncryptionKey: Buffer): SecretBox {
  return createSecretBox(tokenEncryptionKey, KEY_INFO);
}
