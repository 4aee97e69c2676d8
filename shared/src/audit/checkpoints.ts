// Checkpoints: signed statements of where the chain stood at one entry. Made by the worker on its
// schedule, by every export, and by retention for the last entry it removes (the anchor). Kept in
// the database and in every export: a copy kept elsewhere shows a rewrite even by someone who
// holds the server's secrets (docs/audit-log.md).
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint, type AuditCheckpointKind } from '../entities/audit-chain.js';
import type { AuditChain } from './audit-chain.js';
import { ensureAuditChain, readChainHead } from './chain-head.js';
import { verifyStatement, type CheckpointStatement } from './checkpoint-signing.js';

/** Stores a statement, signed when the chain has a signing key. */
export async function storeCheckpoint(
  em: Em,
  chain: AuditChain,
  statement: CheckpointStatement,
): Promise<AuditCheckpoint> {
  const signature = chain.signing === null ? null : await chain.signing.sign(statement);
  const checkpoint = em.create(AuditCheckpointSchema, { ...statement, at: new Date(statement.at), signature });
  await em.insert(AuditCheckpointSchema, checkpoint);
  return checkpoint;
}

/**
 * A checkpoint of the chain's current end, unless the newest one already is at it. Null while the
 * log holds no entry after its anchor.
 */
export async function checkpointChainHead(
  em: Em,
  chain: AuditChain,
  now = new Date(),
): Promise<AuditCheckpoint | null> {
  await ensureAuditChain(em, chain);
  const fork = em.fork();
  const head = await readChainHead(fork, false);
  if (head.seq === head.anchorSeq || head.hash === null || head.digest === null) {
    return null;
  }
  const latest = await fork.findOne(AuditCheckpointSchema, { kind: 'checkpoint' }, { orderBy: { seq: 'desc' } });
  if (latest !== null && latest.seq >= head.seq) {
    return latest;
  }
  const kind: AuditCheckpointKind = 'checkpoint';
  return storeCheckpoint(fork, chain, {
    kind,
    seq: head.seq,
    hash: head.hash,
    digest: head.digest,
    at: now.toISOString(),
  });
}

/** Whether a stored checkpoint says what its signature says (true for every one when the chain signs nothing). */
export async function checkpointIsSigned(chain: AuditChain, checkpoint: AuditCheckpoint): Promise<boolean> {
  if (chain.signing === null) {
    return true;
  }
  if (checkpoint.signature == null) {
    return false;
  }
  const statement = await verifyStatement(checkpoint.signature, await chain.signing.publicKeys());
  return (
    statement !== null &&
    statement.kind === checkpoint.kind &&
    statement.seq === checkpoint.seq &&
    statement.hash === checkpoint.hash &&
    statement.digest === checkpoint.digest
  );
}
