import { unlink } from 'node:fs/promises';

/**
 * Removes a file handed over with `move` once its copy is stored (Storage.putFile). Best effort: the
 * copy is safe either way, and an upload left in DATA_DIR/tmp is the orphan sweep's to remove.
 */
export async function removeSource(sourcePath: string): Promise<void> {
  await unlink(sourcePath).catch(() => undefined);
}
