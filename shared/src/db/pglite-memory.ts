// What keeps the embedded PGlite database small in the process that serves (docs/performance.md).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

/**
 * PostgreSQL's default 128 MB of shared buffers sits inside the WASM heap of this process; 16 MB
 * holds a form-intake database's hot pages and took a reopened database from 375 to 213 MB RSS.
 */
export const PGLITE_CONF = ['shared_buffers = 16MB'];

/** initdb's own runs of PostgreSQL get the same small buffers: about 45 MB less at initdb's peak. */
export const PGLITE_INITDB_PARAMS = ['-c', 'shared_buffers=16MB'];

/**
 * Keeps WebAssembly compiled after this call on V8's baseline compiler (Liftoff): no function is
 * tiered up to TurboFan. Compiling PostgreSQL's SQL parser (`raw_parser`, ~107 KB of WASM, which
 * gets hot within the first queries) takes TurboFan about 600 MB for 2 to 8 s: `npm start` peaked
 * near 940 MB on an existing database because of it, and settles near 300 MB without it. The cost
 * is PGlite's own CPU: up to twice as much on queries that scan and sort; an insert costs the same.
 *
 * `--liftoff-only` does this on the command line; `node scripts/start.js` is run directly too (the
 * Dockerfile, the docs), so the setting is made at run time, where only the tier-up filter still
 * applies: Liftoff then emits no tier-up check for any function whose index is not the filter's,
 * and no function has this index.
 */
export function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--wasm-tier-up-filter=2147483647');
}

// Under the tests this module runs from its .ts source; the child runs the build (`npm test` builds first).
const CLI = import.meta.url.endsWith('.ts') ? '../../dist/db/create-pglite-cli.js' : './create-pglite-cli.js';

/** The largest part of the child's error output kept for the parent's message. */
const STDERR_LIMIT = 4096;

/**
 * Creates an embedded database in `dir` (PGlite's initdb) in a short-lived child process. initdb
 * runs a second PostgreSQL instance beside the database's and copies its whole 128 MB heap: done
 * in this process, that peaked near 1.1 GB and left hundreds of MB behind. The child's memory goes
 * back to the system when it exits; this process then opens the finished database as on a restart.
 */
export async function createPgliteInChildProcess(dir: string): Promise<void> {
  const entry = fileURLToPath(new URL(CLI, import.meta.url));
  const child = spawn(process.execPath, [entry, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0) {
    throw new Error(`creating the embedded database in ${dir} failed: ${stderr.trim() || `exit ${String(code)}`}`);
  }
}
