// One process per embedded database. PGlite does not lock its folder: a second process on the same
// DATA_DIR/db opens it too, both answer, and what one of them wrote is gone after a restart.
// The lock is the OS's (through fs-native-extensions), not a lock file judged by its pid or age: the
// kernel drops it the moment its holder dies, SIGKILL and power loss included, so a restart is never
// blocked by what a dead process left (docs/decisions/embedded-database-lock.md). The lock file
// stays where it is (removing it would let a process waiting on the old file and one creating a new
// file both believe they hold it); its line about the holder, written once the lock is taken, only
// names that holder to the process that is refused (docs/operations.md).
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import type * as NativeExtensions from 'fs-native-extensions';

// Its native addon is loaded on the first lock: a process on PostgreSQL never takes one.
const require = createRequire(import.meta.url);
const tryLock: typeof NativeExtensions.tryLock = (...args) =>
  (require('fs-native-extensions') as typeof NativeExtensions).tryLock(...args);

/** What the lock file says about the process that holds the lock. */
export interface LockHolder {
  pid: number;
  /** How it was started: `npm start`, `npm run migrate`, `node scripts/start.js`, … */
  command: string;
  hostname: string;
  startedAt: string;
}

/** The embedded database is open in another process (or already in this one). */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      `the embedded database ${dir} is in use by ${describeHolder(holder)}: stop that process first, ` +
        'or give this one its own DATA_DIR (one process per embedded database; several processes need DATABASE_URL)',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

export interface EmbeddedDatabaseLock {
  readonly file: string;
  /** Gives the lock up (closing the file is what releases it). Idempotent. */
  release(): void;
}

/** The lock file of the embedded database in `dir`: beside it, so PGlite's own folder stays its own. */
export function lockFileOf(dir: string): string {
  return `${path.resolve(dir)}.lock`;
}

/**
 * Takes the exclusive lock of the embedded database in `dir` without waiting, or throws
 * EmbeddedDatabaseInUseError naming the holder. The lock is tied to this open file, not to the
 * process: a second open in the same process is refused too (two PGlite instances on one folder
 * lose data just the same); close the first database before opening it again.
 */
export function lockEmbeddedDatabase(dir: string): EmbeddedDatabaseLock {
  const file = lockFileOf(dir);
  const fd = openSync(file, 'a+', 0o600);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) {
      closeSync(fd);
    }
  }
  if (!locked) {
    throw new EmbeddedDatabaseInUseError(path.resolve(dir), readHolder(file));
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(thisProcess())}\n`);
  let released = false;
  return {
    file,
    release() {
      if (!released) {
        released = true;
        closeSync(fd);
      }
    },
  };
}

function thisProcess(): LockHolder {
  return {
    pid: process.pid,
    command: commandOfThisProcess(),
    hostname: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
  };
}

/** `npm start` / `npm run migrate` when npm started it, else `node <script>`. */
function commandOfThisProcess(): string {
  const event = process.env.npm_lifecycle_event;
  if (event) {
    return ['start', 'test'].includes(event) ? `npm ${event}` : `npm run ${event}`;
  }
  const script = process.argv[1];
  return script ? `node ${script}` : 'node';
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' ? (holder as LockHolder) : undefined;
  } catch {
    // Not written yet (the holder took the lock a moment ago) or not ours to read.
    return undefined;
  }
}

function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) {
    return 'another process';
  }
  const where = holder.hostname === hostname() ? '' : ` on ${holder.hostname}`;
  const self = holder.pid === process.pid && !where ? ', this process' : '';
  return `process ${holder.pid}${where} (${holder.command}${self}, since ${holder.startedAt})`;
}
