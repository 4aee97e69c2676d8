// The one way submissions are destroyed: by an administrator (`deleteSubmission`), by the spam and
// form retention sweeps, and by erasure on request. Rows go in one transaction: the submission, its
// stored files and its deliveries (pending or done: an e-mail delivery is the outbox copy of the
// notification, and its attempts may hold a receiver's answer echoing the data). The bytes in
// storage go only after the commit, so a rolled-back transaction never loses files rows still point to.
import type { Em } from '../db/orm.js';
import type { Services } from '../services/index.js';

export interface DeletedSubmissions {
  /** The ids that existed and are gone; ids that were already gone are not listed. */
  submissionIds: string[];
  /** Storage keys of their files, to remove after the commit (removeStoredObjects). */
  storageKeys: string[];
  /** Deliveries removed with them (their attempts go with them by cascade). */
  deliveryCount: number;
}

const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

/** Deletes the rows of these submissions inside the caller's transaction `tx`. */
export async function deleteSubmissionRows(tx: Em, ids: readonly string[]): Promise<DeletedSubmissions> {
  if (ids.length === 0) {
    return { submissionIds: [], storageKeys: [], deliveryCount: 0 };
  }
  // The submissions are locked first, in id order, before their files and deliveries: every
  // caller then takes locks in the same order (a retention batch has them already, SKIP LOCKED),
  // so an erasure and a retention run over the same rows wait for each other instead of deadlocking.
  const locked = await tx.execute<{ id: string }[]>(
    `select "id" from "submissions" where "id" in (${placeholders(ids.length)}) order by "id" for update`,
    [...ids],
    'all',
  );
  const found = locked.map((row) => row.id);
  if (found.length === 0) {
    return { submissionIds: [], storageKeys: [], deliveryCount: 0 };
  }
  const list = placeholders(found.length);
  // Deleted explicitly although the foreign keys cascade: the keys are needed for storage and the
  // count for the answer.
  const files = await tx.execute<{ storage_key: string }[]>(
    `delete from "stored_files" where "submission_id" in (${list}) returning "storage_key"`,
    found,
    'all',
  );
  const deliveries = await tx.execute<{ id: string }[]>(
    `delete from "deliveries" where "submission_id" in (${list}) returning "id"`,
    found,
    'all',
  );
  await tx.execute(`delete from "submissions" where "id" in (${list})`, found, 'run');
  return {
    submissionIds: found,
    storageKeys: files.map((file) => file.storage_key),
    deliveryCount: deliveries.length,
  };
}

/**
 * Removes stored objects whose rows are committed as deleted; resolves with how many could not be
 * removed. Those have no row any more, no link reaches them, and the gateway's orphan sweep removes
 * them later; the failure is logged with a count only.
 */
export async function removeStoredObjects(
  services: Pick<Services, 'storage' | 'logger'>,
  keys: readonly string[],
  what: string,
): Promise<number> {
  const removals = await Promise.allSettled(keys.map((key) => services.storage.delete(key)));
  const failed = removals.filter((result) => result.status === 'rejected').length;
  if (failed > 0) {
    services.logger.warn({ count: keys.length, failed }, `could not remove every stored file of ${what}`);
  }
  return failed;
}

/** Deletes these submissions (one transaction) and then their stored objects. */
export async function deleteSubmissions(
  services: Pick<Services, 'db' | 'storage' | 'logger'>,
  ids: readonly string[],
  what: string,
): Promise<DeletedSubmissions> {
  const deleted = await services.db.em.fork().transactional((tx) => deleteSubmissionRows(tx, ids));
  await removeStoredObjects(services, deleted.storageKeys, what);
  return deleted;
}

/** Picks the next batch inside the batch's transaction, locking the rows (`FOR UPDATE SKIP LOCKED`). */
export type SelectBatch = (tx: Em, limit: number) => Promise<string[]>;

/**
 * Deletes batch after batch, each in its own short transaction, until a batch comes back short;
 * resolves with how many submissions were deleted. Several callers may run at once as long as
 * `selectBatch` skips locked rows: they then never take the same submission or wait on each other.
 */
export async function deleteSubmissionsInBatches(
  services: Pick<Services, 'db' | 'storage' | 'logger'>,
  selectBatch: SelectBatch,
  options: { batchSize: number; what: string },
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await services.db.em.fork().transactional(async (tx) => {
      const ids = await selectBatch(tx, options.batchSize);
      return { selected: ids.length, ...(await deleteSubmissionRows(tx, ids)) };
    });
    await removeStoredObjects(services, batch.storageKeys, options.what);
    deleted += batch.submissionIds.length;
    if (batch.selected < options.batchSize) {
      return deleted;
    }
  }
}
