// Checkpoints: signed statements of where the chain stood at one entry, each naming the one before
// it. Made by the worker on its schedule and by every export, only after the log was checked with
// the key (from the newest signed checkpoint on), and only of what that check recomputed: the
// server never signs over entries it did not find intact. Each new one goes to the chain's witness
// (a log line, a file): a copy outside the database shows a truncation the database cannot.
import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint } from '../entities/audit-chain.js';
import type { AuditChain } from './audit-chain.js';
import { readChainHead } from './chain-head.js';
import type { CheckpointStatement } from './checkpoint-signing.js';
import { checkpointIsSigned, statementHash } from './statements.js';
import { checkAuditLog, verifySince, type AuditVerification, type VerifiedEnd } from './verify.js';

/** The log failed its check, so nothing was signed: what the check found. */
export class AuditLogTamperedError extends Error {
  constructor(readonly verification: AuditVerification) {
    super(`the audit log failed its check at entry ${verification.firstBadSequence ?? '?'}`);
    this.name = 'AuditLogTamperedError';
  }
}

/** Stores a statement, signed when the chain has a signing key. */
export async function storeCheckpoint(
  em: Em,
  chain: AuditChain,
  statement: CheckpointStatement,
): Promise<AuditCheckpoint> {
  const signature = chain.signing === null ? null : await chain.signing.sign(statement);
  const checkpoint = em.create(AuditCheckpointSchema, {
    ...statement,
    at: new Date(statement.at),
    signature,
    count: statement.count ?? null,
    previous: statement.previous ?? null,
  });
  await em.insert(AuditCheckpointSchema, checkpoint);
  return checkpoint;
}

/**
 * The log's end as recomputed with the key: from the newest signed checkpoint on, which vouches for
 * what comes before it (a full check each hour read the whole log, about 0.5 ms an entry), or with
 * the whole check when there is none. Throws AuditLogTamperedError when the log fails.
 */
async function verifiedEnd(em: Em, chain: AuditChain): Promise<VerifiedEnd | null> {
  const fork = em.fork();
  const head = await readChainHead(fork, false);
  const latest = await fork.findOne(
    AuditCheckpointSchema,
    { kind: 'checkpoint', count: { $ne: null } },
    { orderBy: { count: 'desc' } },
  );
  if (latest === null || latest.seq <= head.anchorSeq) {
    const { verification, end } = await checkAuditLog(em, chain);
    if (!verification.valid) {
      throw new AuditLogTamperedError(verification);
    }
    return end;
  }
  if (!(await checkpointIsSigned(chain, latest))) {
    throw new AuditLogTamperedError({
      valid: false,
      checkedEntries: 0,
      firstBadSequence: latest.seq,
      problem: `the checkpoint at entry ${latest.seq} has no valid signature`,
    });
  }
  const from = { seq: latest.seq, link: { hash: latest.hash, digest: latest.digest } };
  const result = await em
    .fork()
    .transactional(async (tx) => verifySince(tx, chain, await readChainHead(tx, false), from), {
      isolationLevel: IsolationLevel.REPEATABLE_READ,
      readOnly: true,
    });
  if ('valid' in result) {
    throw new AuditLogTamperedError(result);
  }
  return result;
}

/**
 * Checks the log, then signs a checkpoint of its last entry as recomputed, unless the newest
 * checkpoint already is there. Null while the log holds no entry after its anchor. Throws
 * AuditLogTamperedError, signing nothing, when the check fails.
 */
export async function checkpointChainHead(
  em: Em,
  chain: AuditChain,
  now = new Date(),
): Promise<AuditCheckpoint | null> {
  const end = await verifiedEnd(em, chain);
  if (end === null) {
    return null;
  }
  const made = await em.fork().transactional(async (tx) => {
    // The head's lock makes checkpoints one at a time, so each names the one made just before it.
    await readChainHead(tx, true);
    const latest = await tx.findOne(
      AuditCheckpointSchema,
      { kind: 'checkpoint', count: { $ne: null } },
      { orderBy: { count: 'desc' } },
    );
    if (latest !== null && latest.seq >= end.seq) {
      return { checkpoint: latest, isNew: false };
    }
    const checkpoint = await storeCheckpoint(tx, chain, {
      kind: 'checkpoint',
      seq: end.seq,
      hash: end.link.hash,
      digest: end.link.digest,
      at: now.toISOString(),
      count: (latest?.count ?? 0) + 1,
      previous: latest === null ? '' : statementHash(latest),
    });
    return { checkpoint, isNew: true };
  });
  if (made.isNew) {
    await chain.witness?.(made.checkpoint);
  }
  return made.checkpoint;
}
