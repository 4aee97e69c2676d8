// Spam is kept for 30 days, long enough for an administrator to find a good submission the filters
// caught, and then deleted with its stored files. The delivery worker runs this sweep; several
// workers may run it at once: each batch locks its rows with `FOR UPDATE SKIP LOCKED`, so two
// sweeps never take the same submission and never wait on each other.
import type { Services } from '../services.js';

export const SPAM_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a worker sweeps, after its sweep at start. */
export const SPAM_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

const BATCH_SQL = `
select "id" from "submissions"
 where "spam" and "created_at" < ?
 order by "created_at", "id"
 limit ?
   for update skip locked`;

export interface SpamSweepOptions {
  /** Default SPAM_RETENTION_MS. */
  retentionMs?: number;
  /** Submissions deleted per transaction; default 100. */
  batchSize?: number;
  now?: () => Date;
}

/** Deletes spam older than the retention, batch by batch; resolves with how many were deleted. */
export async function deleteExpiredSpam(
  services: Pick<Services, 'db' | 'storage' | 'logger'>,
  options: SpamSweepOptions = {},
): Promise<number> {
  const retentionMs = options.retentionMs ?? SPAM_RETENTION_MS;
  const batchSize = options.batchSize ?? 100;
  const cutoff = new Date((options.now?.() ?? new Date()).getTime() - retentionMs);
  let deleted = 0;
  for (;;) {
    const batch = await services.db.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<{ id: string }[]>(BATCH_SQL, [cutoff, batchSize], 'all');
      const ids = rows.map((row) => row.id);
      if (ids.length === 0) {
        return { ids, keys: [] as string[] };
      }
      const placeholders = ids.map(() => '?').join(', ');
      const files = await tx.execute<{ storage_key: string }[]>(
        `delete from "stored_files" where "submission_id" in (${placeholders}) returning "storage_key"`,
        ids,
        'all',
      );
      await tx.execute(`delete from "submissions" where "id" in (${placeholders})`, ids, 'run');
      return { ids, keys: files.map((file) => file.storage_key) };
    });
    // Only after the commit: a rolled-back batch must keep its bytes. An object that cannot be
    // removed now has no row any more, and the gateway's orphan sweep removes it later.
    const removals = await Promise.allSettled(batch.keys.map((key) => services.storage.delete(key)));
    if (removals.some((result) => result.status === 'rejected')) {
      services.logger.warn({ count: batch.keys.length }, 'could not remove every stored file of expired spam');
    }
    deleted += batch.ids.length;
    if (batch.ids.length < batchSize) {
      return deleted;
    }
  }
}
