// Spam is kept for 30 days, long enough for an administrator to find a good submission the filters
// caught, and then deleted with its stored files. The delivery worker runs this sweep in each
// retention run (retention-run.ts); several workers may run it at once: each batch locks
// its rows with `FOR UPDATE SKIP LOCKED`, so two sweeps never take the same submission and never
// wait on each other.
import { deleteSubmissionsInBatches } from '@intake/shared/lifecycle';
import type { Services } from '@intake/shared/services';

export const SPAM_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

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
  return deleteSubmissionsInBatches(
    services,
    async (tx, limit) => {
      const rows = await tx.execute<{ id: string }[]>(BATCH_SQL, [cutoff, limit], 'all');
      return rows.map((row) => row.id);
    },
    { batchSize, what: 'expired spam' },
  );
}
