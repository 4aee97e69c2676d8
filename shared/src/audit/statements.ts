// Stored checkpoints and anchors as the statements they sign, and how checkpoints name each other:
// `previous` is the SHA-256 (hex) of the statement before, in RFC 8785 canonical JSON, so anyone
// holding the statements (an export, a witness) can check that none was removed in between.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuditCheckpoint } from '../entities/audit-chain.js';
import type { AuditChain } from './audit-chain.js';
import { verifyStatement, type CheckpointStatement } from './checkpoint-signing.js';

/** The statement a stored checkpoint or anchor makes (and its signature signs). */
export function statementOf(checkpoint: AuditCheckpoint): CheckpointStatement {
  return {
    kind: checkpoint.kind,
    seq: checkpoint.seq,
    hash: checkpoint.hash,
    digest: checkpoint.digest,
    at: checkpoint.at.toISOString(),
    ...(checkpoint.count == null ? {} : { count: checkpoint.count, previous: checkpoint.previous ?? '' }),
  };
}

/** What the next checkpoint names as `previous`. */
export function statementHash(checkpoint: AuditCheckpoint | CheckpointStatement): string {
  const statement = 'id' in checkpoint ? statementOf(checkpoint) : checkpoint;
  return createHash('sha256').update(canonicalize(statement)!).digest('hex');
}

/** Whether a stored checkpoint says what its signature says (true for every one when the chain signs nothing). */
export async function checkpointIsSigned(chain: AuditChain, checkpoint: AuditCheckpoint): Promise<boolean> {
  if (chain.signing === null) {
    return true;
  }
  if (checkpoint.signature == null) {
    return false;
  }
  const signed = await verifyStatement(checkpoint.signature, await chain.signing.publicKeys());
  return signed !== null && canonicalize(signed) === canonicalize(statementOf(checkpoint));
}
