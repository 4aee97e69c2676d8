// Signed statements of the audit chain (checkpoints and retention's anchors): compact JWS, EdDSA
// with the receipt signing key (shared/src/signing, docs/receipts.md), checked with its published
// JWK Set. They are signed as receipts are (signing/compact-jws.ts) and checked with `jose`.
import type { KeyObject } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { AuditCheckpointKind } from '../entities/audit-chain.js';
import { signCompactJws } from '../signing/compact-jws.js';
import type { SigningKeys } from '../signing/index.js';

/** The JWS `typ` of a checkpoint: a verifier refuses a receipt or any other JWS of the same key. */
export const CHECKPOINT_JWS_TYPE = 'intake-audit-checkpoint+jws';

/** What a checkpoint states: at entry `seq` the chain's hash and digest were these. */
export interface CheckpointStatement {
  kind: AuditCheckpointKind;
  seq: number;
  hash: string;
  digest: string;
  /** When the statement was made (ISO 8601). */
  at: string;
  /** Checkpoints only: their number (1, 2, 3, …) and the SHA-256 of the one before ('' for the first). */
  count?: number;
  previous?: string;
}

/** How checkpoints are signed and checked: the current private key, and every published public key. */
export interface CheckpointSigning {
  sign(statement: CheckpointStatement): Promise<string>;
  /** The published keys (current and retired), as the gateway's /.well-known/jwks.json serves them. */
  publicKeys(): Promise<JSONWebKeySet>;
}

/**
 * Checkpoint signing with the deployment's signing keys, loaded on first use (the key file may
 * be made then) and kept: the first checkpoint is made by the worker or an export, not at start.
 */
export function checkpointSigningWith(load: () => Promise<SigningKeys>): CheckpointSigning {
  let keys: Promise<SigningKeys> | undefined;
  const loaded = (): Promise<SigningKeys> => {
    keys ??= load().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return {
    sign: async (statement) => (await loaded()).sign(statement, CHECKPOINT_JWS_TYPE),
    publicKeys: async () => (await loaded()).jwks(),
  };
}

/** A key of one's own (tests: what someone forging a checkpoint would have), used as the deployment's is. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

export async function signStatement(key: SigningKey, statement: CheckpointStatement): Promise<string> {
  return signCompactJws(key.privateKey, { alg: 'EdDSA', kid: key.kid, typ: CHECKPOINT_JWS_TYPE }, statement);
}

function isStatement(value: unknown): value is CheckpointStatement {
  const statement = value as Partial<CheckpointStatement> | null;
  return (
    typeof statement === 'object' &&
    statement !== null &&
    (statement.kind === 'checkpoint' || statement.kind === 'anchor') &&
    Number.isSafeInteger(statement.seq) &&
    typeof statement.hash === 'string' &&
    typeof statement.digest === 'string' &&
    typeof statement.at === 'string' &&
    (statement.count === undefined || Number.isSafeInteger(statement.count)) &&
    (statement.previous === undefined || typeof statement.previous === 'string')
  );
}

/** The statement of a checkpoint JWS signed by one of `keys`; null when it is not one (bad signature, unknown key, other type). */
export async function verifyStatement(jws: string, keys: JSONWebKeySet): Promise<CheckpointStatement | null> {
  try {
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keys), { algorithms: ['EdDSA'] });
    if (protectedHeader.typ !== CHECKPOINT_JWS_TYPE) {
      return null;
    }
    const statement: unknown = JSON.parse(new TextDecoder().decode(payload));
    return isStatement(statement) ? statement : null;
  } catch {
    return null;
  }
}
