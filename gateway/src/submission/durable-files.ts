// The files of a group of submissions made durable together, before the statement that refers to
// them: each fsync alone was most of what a stored upload cost (docs/performance.md, "Durable files
// in groups"). Nothing committed refers to a file not on disk; a crash after the sync and before the
// commit leaves files without rows, which the orphan sweep removes.
import type { AppError } from '@intake/shared/errors';
import type { Storage } from '@intake/shared/storage';
import type { FileRow } from './guarded-insert.js';

/** The storage's part the store uses; absent (or without `makeDurable`) where a put is durable already. */
export type DurableFiles = Pick<Storage, 'makeDurable'>;

/**
 * Makes the files of each submission durable, all in one call to the storage; per submission, in
 * order, undefined when all its files are on disk, else the first failure. Never throws.
 */
export async function makeFilesDurable(
  files: DurableFiles | undefined,
  submissions: readonly (readonly Pick<FileRow, 'storageKey'>[])[],
): Promise<(AppError | undefined)[]> {
  const keys = submissions.flatMap((rows) => rows.map((row) => row.storageKey));
  if (files?.makeDurable === undefined || keys.length === 0) {
    return submissions.map(() => undefined);
  }
  const failures = await files.makeDurable(keys);
  let next = 0;
  return submissions.map((rows) => {
    const own = failures.slice(next, (next += rows.length));
    return own.find((failure) => failure !== undefined);
  });
}
