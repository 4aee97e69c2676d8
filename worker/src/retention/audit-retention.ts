// The audit log is kept for AUDIT_RETENTION_DAYS and then deleted by the delivery worker, beside
// the spam sweep: batch by batch in short transactions, each locking its rows with
// `FOR UPDATE SKIP LOCKED`, so concurrent workers never wait on each other. A run that deleted
// something leaves an entry of its own, so a shorter history can be told apart from tampering.
import { recordAuditEntry, systemActor } from '@intake/shared/audit';
import type { Services } from '@intake/shared/services';

export const DAY_MS = 24 * 60 * 60 * 1000;

const BATCH_SQL = `
delete from "audit_log"
 where "id" in (
   select "id" from "audit_log"
    where "at" < ?
    order by "at", "id"
    limit ?
      for update skip locked)`;

export interface AuditPruneOptions {
  /** Default: the configured AUDIT_RETENTION_DAYS. */
  retentionDays?: number;
  /** Entries deleted per transaction; default 1000. */
  batchSize?: number;
  now?: () => Date;
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
  let deleted = 0;
  for (;;) {
    const result = await services.db.em
      .fork()
      .transactional((tx) => tx.execute<{ affectedRows: number }>(BATCH_SQL, [cutoff, batchSize], 'run'));
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
