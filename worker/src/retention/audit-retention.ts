// The audit log is kept for AUDIT_RETENTION_DAYS and then deleted by the delivery worker, beside
// the spam sweep. The log is a chain (docs/audit-log.md), so entries go from its start only: up to
// the first entry still within the retention. First, with the chain's head locked, every entry to go
// is checked with the key (its hash, its digest, the signed checkpoints and the anchor it follows):
// `at` is believed only then. A log that fails loses nothing: the run logs it and records a failed
// `auditLog.prune`. Otherwise the anchor moves (a signed statement of the last entry to go) and the
// entries up to it are deleted in short batches (`FOR UPDATE SKIP LOCKED`, concurrent workers share).
import {
  AuditLogTamperedError,
  readChainHead,
  recordAuditEntry,
  storeCheckpoint,
  systemActor,
  verifyPrefix,
} from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';

export const DAY_MS = 24 * 60 * 60 * 1000;

const BATCH_SQL = `
delete from "audit_log"
 where "id" in (
   select "id" from "audit_log"
    where "seq" <= ?
    order by "seq"
    limit ?
      for update skip locked)`;

export interface AuditPruneOptions {
  /** Default: the configured AUDIT_RETENTION_DAYS. */
  retentionDays?: number;
  /** Entries deleted per transaction; default 1000. */
  batchSize?: number;
  now?: () => Date;
}

const FIRST_KEPT_SQL = `select min("seq") as "seq" from "audit_log" where "seq" > ? and "at" >= ?`;

/**
 * Moves the chain's anchor to the last entry of the log's expired start, with a signed anchor
 * statement; resolves with the anchor's sequence number (entries up to it are to be deleted).
 */
async function moveAnchor(services: Pick<Services, 'auditChain'>, tx: Em, cutoff: Date, now: Date): Promise<number> {
  const head = await readChainHead(tx, true);
  const [row] = await tx.execute<{ seq: unknown }[]>(FIRST_KEPT_SQL, [head.anchorSeq, cutoff]);
  const last = row?.seq == null ? head.seq : Number(row.seq) - 1;
  if (last <= head.anchorSeq) {
    return head.anchorSeq;
  }
  const checked = await verifyPrefix(tx, services.auditChain, head, last);
  if ('valid' in checked) {
    throw new AuditLogTamperedError(checked);
  }
  const anchor = { anchorSeq: last, anchorHash: checked.hash, anchorDigest: checked.digest };
  await tx.nativeUpdate(AuditChainHeadSchema, { id: AUDIT_CHAIN_HEAD_ID }, anchor);
  await storeCheckpoint(tx, services.auditChain, {
    kind: 'anchor',
    seq: last,
    hash: anchor.anchorHash,
    digest: anchor.anchorDigest,
    at: now.toISOString(),
  });
  return last;
}

/** The error code of a retention run that found the log altered and removed nothing. */
export const AUDIT_LOG_TAMPERED = 'AUDIT_LOG_TAMPERED';

/** A log that failed its check: said at error level (numbers only) and in the log itself. */
async function reportTampering(
  services: Pick<Services, 'db' | 'auditChain' | 'logger'>,
  error: AuditLogTamperedError,
  retentionDays: number,
  now: Date,
): Promise<void> {
  const { firstBadSequence } = error.verification;
  services.logger.error({ firstBadSequence }, 'audit log failed its check: retention removed nothing');
  await recordAuditEntry(services.db.em.fork(), services.auditChain, {
    actor: systemActor('audit retention'),
    action: 'auditLog.prune',
    outcome: 'failure',
    errorCode: AUDIT_LOG_TAMPERED,
    details: { firstBadSequence, retentionDays },
    at: now,
  });
}

/** Deletes entries older than the retention; resolves with how many were deleted. */
export async function deleteExpiredAuditEntries(
  services: Pick<Services, 'db' | 'config' | 'auditChain' | 'logger'>,
  options: AuditPruneOptions = {},
): Promise<number> {
  const retentionDays = options.retentionDays ?? services.config.auditRetentionDays;
  const batchSize = options.batchSize ?? 1000;
  const now = options.now?.() ?? new Date();
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let anchorSeq: number;
  try {
    anchorSeq = await services.db.em.fork().transactional((tx) => moveAnchor(services, tx, cutoff, now));
  } catch (error) {
    if (error instanceof AuditLogTamperedError) {
      await reportTampering(services, error, retentionDays, now);
      return 0;
    }
    throw error;
  }
  let deleted = 0;
  for (;;) {
    const result = await services.db.em
      .fork()
      .transactional((tx) => tx.execute<{ affectedRows: number }>(BATCH_SQL, [anchorSeq, batchSize], 'run'));
    const count = result.affectedRows;
    deleted += count;
    if (count < batchSize) {
      break;
    }
  }
  if (deleted > 0) {
    await recordAuditEntry(services.db.em.fork(), services.auditChain, {
      actor: systemActor('audit retention'),
      action: 'auditLog.prune',
      outcome: 'success',
      details: { count: deleted, retentionDays },
      at: now,
    });
  }
  return deleted;
}
