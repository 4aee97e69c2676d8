// Long-lived API tokens for integrators: `itk_` + 256 random bits. Only the sha256 is stored, so a
// database leak gives no usable token; the secret is shown once, when it is created.
import { createHash, randomBytes } from 'node:crypto';

export const API_TOKEN_PREFIX = 'itk_';
const API_TOKEN_SHAPE = /^itk_[A-Za-z0-9_-]{43}$/;

export function generateApiToken(): { token: string; tokenHash: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashApiToken(token) };
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeApiToken(token: string): boolean {
  return API_TOKEN_SHAPE.test(token);
}
