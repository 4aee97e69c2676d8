import { calculateJwkThumbprint, type JWK } from 'jose';

/**
 * One signing key as Intake keeps it. In a list of them the first signs and the others are
 * retired: only their public keys are used, to verify what they signed.
 */
export interface KeyEntry {
  /** An Ed25519 JWK (kty OKP, crv Ed25519): private (with `d`) for the current key, public or private for a retired one. */
  jwk: JWK;
  /**
   * When a retired key stopped signing: its public key is published for the retention after it.
   * Undefined for the current key, and for a retired key published for as long as it is listed.
   */
  retiredAt?: Date;
}

/**
 * Checks that `value` is an Ed25519 JWK (private when `needPrivate`). `name` says where it came
 * from in the error, which never holds the value.
 */
export function readEd25519Jwk(value: unknown, name: string, needPrivate: boolean): JWK {
  const jwk = value as Record<string, unknown> | null;
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk)) {
    throw new Error(`${name}: must be a JSON Web Key object`);
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new Error(`${name}: must be an Ed25519 key (kty "OKP", crv "Ed25519", with "x")`);
  }
  if (needPrivate && typeof jwk.d !== 'string') {
    throw new Error(`${name}: the signing key must be private (with "d")`);
  }
  if (jwk.kid !== undefined && (typeof jwk.kid !== 'string' || jwk.kid === '')) {
    throw new Error(`${name}: "kid" must be a non-empty string`);
  }
  return jwk as JWK;
}

/** The key's id: its own `kid`, else its RFC 7638 thumbprint (stable for the same key everywhere). */
export async function keyIdOf(jwk: JWK): Promise<string> {
  return jwk.kid ?? calculateJwkThumbprint(jwk, 'sha256');
}

/** Only the public members of an Ed25519 JWK, with its `kid` and the use and algorithm it is for. */
export function publicJwkOf(jwk: JWK, kid: string): JWK {
  return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid, use: 'sig', alg: 'EdDSA' };
}
