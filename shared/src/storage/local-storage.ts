import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/index.js';
import { assertStorageKey, isStorageKey, newStorageKey } from './storage-key.js';
import { removeSource } from './remove-source.js';
import type { Storage, StoredObject } from './storage.js';

// `<key>.<12 hex>.tmp`: a putFile in progress, or the leftover of one that crashed.
const TEMPORARY_NAME = /^[a-f0-9]{40}\.[a-f0-9]{12}\.tmp$/;

/** Puts in one fan-out folder before the next (see nextKey). */
const FOLDER_TURN = 64;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

function unavailable(cause: unknown): AppError {
  return new AppError('service_unavailable', 'File storage is unavailable.', { retryAfter: 5, cause });
}

function settled<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/** fsync of a file or a folder (a folder's, for the names made in it). */
async function fsyncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Options for tests. */
export interface LocalStorageOptions {
  /** The fsync of one file or folder; tests count and delay them. */
  syncPath?: (file: string) => Promise<void>;
}

function isOtherFilesystem(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EXDEV';
}

/** The entries of a folder, or none when it does not exist (yet, or any more). */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) {
      return [];
    }
    throw error;
  }
}

/**
 * Local-disk storage under one root (DATA_DIR/files). A key is `ab/<40 hex>`: random, fanned out
 * over 256 folders, a turn of 64 puts at a time. Keys are checked against that pattern before any path is built, so no
 * user-controlled text can reach the file system. Writes go to a temporary name, are fsynced and
 * renamed, and the folder fsynced, so an object is either whole or absent. With `syncLater` the
 * fsyncs are left to `makeDurable`, which takes a group's objects at once.
 */
export function createLocalStorage(root: string, options: LocalStorageOptions = {}): Storage {
  const absoluteRoot = path.resolve(root);
  const syncPath = options.syncPath ?? fsyncPath;

  function pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(absoluteRoot, key);
  }

  // makeDurable fsyncs each distinct folder of a group once, and a folder's fsync cost about as much
  // as a small file's (a disk cache flush): so the fan-out folder changes every FOLDER_TURN puts
  // rather than every put, and a commit group's files share one or two folders. Each turn's folder is
  // random, so over time the files still spread evenly; the key's own 160 bits stay random.
  let folderPrefix = '';
  let putsInFolder = FOLDER_TURN;
  function nextKey(): string {
    if (putsInFolder >= FOLDER_TURN) {
      folderPrefix = randomBytes(1).toString('hex');
      putsInFolder = 0;
    }
    putsInFolder++;
    return newStorageKey(folderPrefix);
  }

  // The fan-out folders made so far: a mkdir per stored file was a share of the upload path's
  // file-system calls. A folder removed behind our back shows as ENOENT and is made again.
  const folders = new Set<string>();

  async function inFolderOf<T>(target: string, write: () => Promise<T>): Promise<T> {
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    try {
      return await write();
    } catch (error) {
      if (!isMissing(error)) {
        throw error;
      }
      folders.delete(folder);
      await mkdir(folder, { recursive: true });
      folders.add(folder);
      return write();
    }
  }

  /**
   * Renames `source` into place (made durable first unless the caller syncs later); false when
   * storage is on another filesystem and the bytes must be copied instead.
   */
  async function movedInto(source: string, target: string, syncNow: boolean): Promise<boolean> {
    if (syncNow) {
      await syncPath(source);
    }
    try {
      await inFolderOf(target, () => rename(source, target));
      return true;
    } catch (error) {
      if (isOtherFilesystem(error)) {
        return false;
      }
      throw error;
    }
  }

  /**
   * Every object's bytes first, concurrently (each fsync a call in libuv's pool), then each distinct
   * folder once, for the renames that put them there. The files' fsyncs have committed the journal
   * that holds the renames by then, but a folder's fsync still flushes the disk's cache: hence one
   * per folder, and few folders per group (nextKey).
   */
  async function makeDurable(keys: readonly string[]): Promise<(AppError | undefined)[]> {
    const files = await Promise.allSettled(keys.map(async (key) => syncPath(pathOf(key))));
    const folders = new Map<string, Promise<PromiseSettledResult<void>>>();
    keys.forEach((key, position) => {
      const folder = path.dirname(path.join(absoluteRoot, key));
      if (files[position]!.status === 'fulfilled' && !folders.has(folder)) {
        folders.set(folder, settled(syncPath(folder)));
      }
    });
    return Promise.all(
      keys.map(async (key, position) => {
        const file = files[position]!;
        const folder =
          file.status === 'fulfilled' ? await folders.get(path.dirname(path.join(absoluteRoot, key)))! : file;
        return folder.status === 'rejected' ? unavailable(folder.reason) : undefined;
      }),
    );
  }

  /** Every file of the fan-out folders, with the key-shaped ones told apart from the rest. */
  async function* walk(): AsyncGenerator<{ prefix: string; name: string; file: string }> {
    for (const prefix of await entriesOf(absoluteRoot)) {
      if (!/^[a-f0-9]{2}$/.test(prefix)) {
        continue;
      }
      for (const name of await entriesOf(path.join(absoluteRoot, prefix))) {
        yield { prefix, name, file: path.join(absoluteRoot, prefix, name) };
      }
    }
  }

  /** mtime of a file, or undefined when it vanished between listing and stat. */
  async function modifiedAt(file: string): Promise<Date | undefined> {
    try {
      return (await stat(file)).mtime;
    } catch (error) {
      if (isMissing(error)) {
        return undefined;
      }
      throw error;
    }
  }

  return {
    async putFile(sourcePath, options = {}) {
      const key = nextKey();
      const target = pathOf(key);
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const syncNow = options.syncLater !== true;
      try {
        if (!(options.move === true && (await movedInto(sourcePath, target, syncNow)))) {
          await inFolderOf(temporary, () => copyFile(sourcePath, temporary));
          if (syncNow) {
            await syncPath(temporary);
          }
          await rename(temporary, target);
          if (options.move === true) {
            await removeSource(sourcePath);
          }
        }
        if (syncNow) {
          await syncPath(path.dirname(target));
        }
      } catch (error) {
        // Best effort: when the disk is the problem, removing may fail too; the sweep catches up.
        await rm(temporary, { force: true }).catch(() => undefined);
        throw unavailable(error);
      }
      return key;
    },
    makeDurable,
    async get(key) {
      const file = pathOf(key);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch (error) {
        if (isMissing(error)) {
          return undefined;
        }
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async ping() {
      try {
        await mkdir(absoluteRoot, { recursive: true });
        await access(absoluteRoot, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
    async *list(): AsyncGenerator<StoredObject> {
      for await (const { prefix, name, file } of walk()) {
        const key = `${prefix}/${name}`;
        if (!isStorageKey(key)) {
          continue;
        }
        const lastModified = await modifiedAt(file);
        if (lastModified) {
          yield { key, lastModified };
        }
      }
    },
    async removeStaleTemporaries(olderThan) {
      let removed = 0;
      for await (const { name, file } of walk()) {
        if (!TEMPORARY_NAME.test(name)) {
          continue;
        }
        const lastModified = await modifiedAt(file);
        if (lastModified && lastModified < olderThan) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
