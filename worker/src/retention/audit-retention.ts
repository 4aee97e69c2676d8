// The audit log is kept for AUDIT_RETENTION_DAYS and then deleted by the delivery worker, beside
// the spam sweep. The log is a chain (docs/audit-log.md), so entries go from its start only: up to
// the first entry still within the retention. First the anchor moves (with the chain's head locked,
// a signed statement of the last entry to go, so what stays still verifies), then the entries up to
// it are deleted batch by batch in short transactions, each locking its rows with
// `FOR UPDATE SKIP LOCKED`, so concurrent workers never wait on each other. A run that deleted
// something leaves an entry of its own, so a shorter history can be told apart from tampering.
import { chainBacklog, readChainHead, recordAuditEntry, storeCheckpoint, systemActor } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema, AuditEntrySchema } from '@intake/shared/entities';
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
  const head = await chainBacklog(tx, services.auditChain, await readChainHead(tx, true));
  const [row] = await tx.execute<{ seq: unknown }[]>(FIRST_KEPT_SQL, [head.anchorSeq, cutoff]);
  const last = row?.seq == null ? head.seq : Number(row.seq) - 1;
  if (last <= head.anchorSeq) {
    return head.anchorSeq;
  }
  const entry = await tx.findOneOrFail(AuditEntrySchema, { seq: last }, { fields: ['hash', 'digest'] });
  const anchor = { anchorSeq: last, anchorHash: entry.hash ?? '', anchorDigest: entry.digest ?? '' };
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

/** Deletes entries older than the retention; resolves with how many were deleted. */
export async function deleteExpiredAuditEntries(
  services: Pick<Services, 'db' | 'config' | 'auditChain'>,
  options: AuditPruneOptions = {},
): Promise<number> {
  const retentionDays = options.retentionDays ?? services.config.auditRetentionDays;
  const batchSize = options.batchSize ?? 1000;
  const now = options.now?.() ?? new Date();
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const anchorSeq = await services.db.em.fork().transactional((tx) => moveAnchor(services, tx, cutoff, now));
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
