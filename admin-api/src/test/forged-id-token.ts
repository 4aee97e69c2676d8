// ID tokens as a man in the middle would forge them: the provider's token decoded, its claims
// changed at will, and signed again with a key that is not the provider's (or not at all).
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';

type Json = Record<string, unknown>;

const encode = (value: Json) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeJwt(token: string): { header: Json; payload: Json } {
  const [header, payload] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as Json,
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Json,
  };
}

/** An RSA key of the attacker's, with its public half as a JWK (for a key set it substitutes). */
export function attackerKey(kid: string): { privateKey: KeyObject; publicJwk: Json } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

export interface Forgery {
  /** Signs with RS256 under this key; null: `alg: none`, no signature. */
  key: KeyObject | null;
  /** The `kid` header (undefined: none). */
  kid?: string;
  /** Claims laid over the provider's. */
  claims?: Json;
}

/** The provider's ID token with `forgery.claims` laid over its own, signed as `forgery` says. */
export function forgeIdToken(original: string, forgery: Forgery): string {
  const { payload } = decodeJwt(original);
  const header: Json =
    forgery.key === null
      ? { alg: 'none', typ: 'JWT' }
      : { alg: 'RS256', typ: 'JWT', ...(forgery.kid === undefined ? {} : { kid: forgery.kid }) };
  const signingInput = `${encode(header)}.${encode({ ...payload, ...forgery.claims })}`;
  if (forgery.key === null) {
    return `${signingInput}.`;
  }
  const signature = createSign('RSA-SHA256').update(signingInput).sign(forgery.key).toString('base64url');
  return `${signingInput}.${signature}`;
}
