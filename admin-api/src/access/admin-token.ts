// Admin bearer tokens: HS256 JWTs signed with a key derived from JWT_SECRET. Besides `sub` (the
// admin id), `iat` and `exp`, a token carries `pwv`, the admin's `passwordChangedAt` in
// milliseconds when it was issued: a password change moves that date, so every older token stops
// matching at once (a comparison with `iat`, whole seconds, would let a token issued in the same
// second survive the change).
import { createSecretKey } from 'node:crypto';
import { isUuid } from '@intake/shared/site-token';
import type { Config } from '@intake/shared/config';
import jwt from 'jsonwebtoken';
import { ADMIN_TOKEN_KEY_INFO, deriveKey } from './keys.js';

const ALGORITHM = 'HS256';
const AUDIENCE = 'intake-admin';
const MAX_TOKEN_LENGTH = 2048;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface AdminTokenClaims {
  adminId: string;
  /** `passwordChangedAt` (ms) of the admin when the token was issued. */
  passwordVersion: number;
  /** When it was issued (`iat`, whole seconds): every token is issued by a sign-in or a confirmation. */
  issuedAt: Date;
}

export interface IssuedAdminToken {
  token: string;
  expiresAt: Date;
}

export interface AdminTokens {
  issue(adminId: string, passwordChangedAt: Date, now?: Date): IssuedAdminToken;
  /** The claims of a valid, unexpired token of ours; null for anything else. */
  verify(token: string): AdminTokenClaims | null;
}

export function createAdminTokens(config: Pick<Config, 'jwtSecret' | 'adminTokenTtlSeconds'>): AdminTokens {
  // A KeyObject, made once: given bytes, jsonwebtoken tries each verification's key as a public key
  // first, and that failed parse cost a quarter of a millisecond per request.
  const key = createSecretKey(deriveKey(config.jwtSecret, ADMIN_TOKEN_KEY_INFO));
  const ttlSeconds = config.adminTokenTtlSeconds;

  return {
    issue(adminId, passwordChangedAt, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      const token = jwt.sign({ pwv: passwordChangedAt.getTime(), iat }, key, {
        algorithm: ALGORITHM,
        subject: adminId,
        audience: AUDIENCE,
        expiresIn: ttlSeconds,
      });
      return { token, expiresAt: new Date((iat + ttlSeconds) * 1000) };
    },
    verify(token) {
      if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) {
        return null;
      }
      let payload: string | jwt.JwtPayload;
      try {
        payload = jwt.verify(token, key, { algorithms: [ALGORITHM], audience: AUDIENCE });
      } catch {
        return null;
      }
      if (
        typeof payload !== 'object' ||
        !isUuid(payload.sub) ||
        typeof payload.exp !== 'number' ||
        typeof payload.iat !== 'number'
      ) {
        return null;
      }
      const passwordVersion: unknown = payload.pwv;
      if (typeof passwordVersion !== 'number' || !Number.isSafeInteger(passwordVersion)) {
        return null;
      }
      return { adminId: payload.sub.toLowerCase(), passwordVersion, issuedAt: new Date(payload.iat * 1000) };
    },
  };
}
