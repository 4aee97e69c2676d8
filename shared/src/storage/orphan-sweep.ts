import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoredFileSchema } from '../entities/index.js';
import type { Database } from '../db/orm.js';
import type { Logger } from '../logger/index.js';
import type { Storage } from './storage.js';

// A process killed between storing a file and committing its row leaves an object that nothing
// references; so does a failed cleanup. The sweep removes such objects once they are older than a
// grace period that exceeds the longest request, so an object whose row is about to be committed is
// never touched. Rows are checked a batch of keys at a time.

export interface SweepOptions {
  /** Only objects and uploads last modified longer ago than this are candidates. */
  graceMs: number;
  /** The gateway's folder of uploads in progress (DATA_DIR/tmp); stale ones are removed too. */
  uploadDir?: string;
  /** The clock, for tests. */
  now?: () => Date;
  /** Keys checked against the database per query. */
  batchSize?: number;
}

export interface SweepResult {
  /** Objects listed. */
  scanned: number;
  /** Objects older than the grace period with no row: removed. */
  removed: number;
  /** Half-written objects of crashed writes removed (local driver). */
  temporaries: number;
  /** Stale upload files removed from the upload folder. */
  uploads: number;
}

/** The part of `Services` the sweep uses, named here: services.ts builds its storage from this folder. */
interface SweepServices {
  db: Database;
  storage: Storage;
  logger: Logger;
}

// The multipart engine's temporary names (gateway/src/body/upload-storage.ts).
const UPLOAD_NAME = /^upload-[a-f0-9]{32}$/;

async function removeUnreferenced(services: SweepServices, keys: readonly string[]): Promise<number> {
  const em = services.db.em.fork();
  const rows = await em.find(StoredFileSchema, { storageKey: { $in: [...keys] } }, { fields: ['storageKey'] });
  const referenced = new Set(rows.map((row) => row.storageKey));
  let removed = 0;
  for (const key of keys) {
    if (!referenced.has(key)) {
      await services.storage.delete(key);
      removed += 1;
    }
  }
  return removed;
}

async function removeStaleUploads(uploadDir: string, cutoff: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(uploadDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return 0;
    }
    throw error;
  }
  let removed = 0;
  for (const name of names.filter((entry) => UPLOAD_NAME.test(entry))) {
    const file = path.join(uploadDir, name);
    const modified = await stat(file).then(
      (stats) => stats.mtime,
      () => undefined,
    );
    if (modified && modified < cutoff) {
      await rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** One pass: removes stored objects older than the grace period that no StoredFile row references. */
export async function sweepOrphans(services: SweepServices, options: SweepOptions): Promise<SweepResult> {
  const cutoff = new Date((options.now?.() ?? new Date()).getTime() - options.graceMs);
  const batchSize = options.batchSize ?? 500;
  const result: SweepResult = { scanned: 0, removed: 0, temporaries: 0, uploads: 0 };

  let candidates: string[] = [];
  for await (const object of services.storage.list()) {
    result.scanned += 1;
    if (object.lastModified < cutoff) {
      candidates.push(object.key);
    }
    if (candidates.length >= batchSize) {
      result.removed += await removeUnreferenced(services, candidates);
      candidates = [];
    }
  }
  if (candidates.length > 0) {
    result.removed += await removeUnreferenced(services, candidates);
  }
  result.temporaries = (await services.storage.removeStaleTemporaries?.(cutoff)) ?? 0;
  if (options.uploadDir) {
    result.uploads = await removeStaleUploads(options.uploadDir, cutoff);
  }
  return result;
}

export interface OrphanSweeper {
  /** Cancels the next sweep and waits for a running one. */
  stop(): Promise<void>;
  /** The sweep in progress, or a resolved promise: lets a caller wait for the sweep at start. */
  idle(): Promise<void>;
}

/**
 * Sweeps at once, then every `intervalMs` after the previous sweep ended (0: only at start). A failed
 * sweep is logged and tried again at the next interval; the timer never keeps the process alive.
 */
export function startOrphanSweeper(
  services: SweepServices,
  options: SweepOptions & { intervalMs: number },
): OrphanSweeper {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const run = (): void => {
    timer = undefined;
    running = sweepOrphans(services, options).then(
      (result) => {
        const level = result.removed + result.temporaries + result.uploads > 0 ? 'info' : 'debug';
        services.logger[level]({ ...result }, 'orphan sweep finished');
      },
      (error: unknown) => {
        services.logger.warn({ err: error }, 'orphan sweep failed; retrying at the next interval');
      },
    );
    void running.then(() => {
      if (!stopped && options.intervalMs > 0) {
        timer = setTimeout(run, options.intervalMs);
        timer.unref();
      }
    });
  };
  run();

  return {
    async stop() {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
      }
      await running;
    },
    idle: () => running,
  };
}
