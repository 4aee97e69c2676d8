import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet, type JWK } from 'jose';
import type { Config } from '../config/types.js';
import { signCompactJws } from './compact-jws.js';
import { parseEnvironmentKeys } from './environment-key.js';
import { keyIdOf, publicJwkOf, type KeyEntry } from './key-entry.js';
import { readOrCreateKeyFile } from './key-file.js';

const ALGORITHM = 'EdDSA';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the keys come from and how long a retired one stays published. */
export type SigningConfig = Pick<Config, 'dataDir' | 'receiptSigning'>;

/** A compact JWS that verified against a published key. */
export interface VerifiedStatement {
  payload: unknown;
  /** The `kid` of the key that signed it. */
  kid: string;
  /** The protected header's `typ`. */
  type: string | undefined;
}

export interface SigningKeys {
  /** The `kid` of the key that signs now. */
  readonly kid: string;
  /** The current private key (Ed25519, for EdDSA). */
  readonly privateKey: KeyObject;
  /**
   * The public keys to publish at `now`: the current one first, then each retired one until its
   * retention has passed. Never a private member.
   */
  jwks(now?: Date): JSONWebKeySet;
  /** A compact JWS of `payload` as JSON, its protected header `{ alg: 'EdDSA', kid, typ: type }`. */
  sign(payload: object, type: string): Promise<string>;
  /**
   * Verifies a compact JWS against the keys published at `now`; throws (a jose error) when the
   * signature does not verify, the key is unknown or no longer published, or it is not EdDSA.
   */
  verify(jws: string, now?: Date): Promise<VerifiedStatement>;
}

/**
 * The signing keys of this deployment: `RECEIPT_SIGNING_KEY` when set (so every process and
 * machine signs with the same key), else DATA_DIR/receipt-keys.json, made on first start.
 */
export async function loadSigningKeys(config: SigningConfig): Promise<SigningKeys> {
  const entries =
    config.receiptSigning.key === undefined
      ? await readOrCreateKeyFile(config.dataDir)
      : parseEnvironmentKeys(config.receiptSigning.key);
  return signingKeysOf(entries, config.receiptSigning.keyRetentionDays);
}

/** The keys of a list whose first entry signs (see KeyEntry). */
export async function signingKeysOf(entries: readonly KeyEntry[], retentionDays: number): Promise<SigningKeys> {
  const [current, ...retired] = entries;
  if (current === undefined) {
    throw new Error('signingKeysOf: no key');
  }
  const kid = await keyIdOf(current.jwk);
  const privateKey = createPrivateKey({ key: current.jwk as JsonWebKey, format: 'jwk' });
  const published: { jwk: JWK; until: number }[] = [{ jwk: publicJwkOf(current.jwk, kid), until: Infinity }];
  for (const entry of retired) {
    const until = entry.retiredAt ? entry.retiredAt.getTime() + retentionDays * DAY_MS : Infinity;
    const retiredKid = await keyIdOf(entry.jwk);
    // One key listed twice (a rotation that reused it) is published once.
    if (!published.some((key) => key.jwk.kid === retiredKid)) {
      published.push({ jwk: publicJwkOf(entry.jwk, retiredKid), until });
    }
  }
  const jwks = (now = new Date()): JSONWebKeySet => ({
    keys: published.filter((key) => key.until > now.getTime()).map((key) => ({ ...key.jwk })),
  });
  return {
    kid,
    privateKey,
    jwks,
    sign: async (payload, type) => signCompactJws(privateKey, { alg: ALGORITHM, kid, typ: type }, payload),
    verify: async (jws, now) => {
      const result = await compactVerify(jws, createLocalJWKSet(jwks(now)), { algorithms: [ALGORITHM] });
      return {
        payload: JSON.parse(new TextDecoder().decode(result.payload)) as unknown,
        kid: result.protectedHeader.kid as string,
        type: result.protectedHeader.typ,
      };
    },
  };
}
