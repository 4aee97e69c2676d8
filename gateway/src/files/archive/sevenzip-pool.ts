// Runs 7z-wasm in worker threads, never on the gateway's own thread: a corrupt header may make
// 7-Zip loop, throw or allocate wildly, and all of that must end with the worker, not the process.
// Measured (Node 24, compiled output): a worker answers ~40-60 ms after it is started, and its
// first inspection costs ~30-50 ms more while the WebAssembly code warms up; an inspection on a
// warm worker takes 2-10 ms. So workers are kept warm and reused; one is thrown away after any
// failure (timeout, crash, out of memory, an uncaught 7-Zip exception), once its WebAssembly heap
// has grown big (it never shrinks), and after a number of sessions (`maxSessionsPerWorker: 1` gives
// a fresh worker per file). The .wasm is compiled once per process (~10 ms) and shared.
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  ExtractRequest,
  ExtractResponse,
  ListResponse,
  LoadResponse,
  ReadResponse,
  ReadyMessage,
  SevenZipRequest,
  SevenZipResponse,
  SevenZipWorkerData,
} from './sevenzip-protocol.js';

export interface SevenZipPoolOptions {
  /** Workers alive at once; further sessions wait for one. */
  maxWorkers: number;
  /** V8 heap of a worker (listing text, bookkeeping); beyond it the worker dies, the archive is refused. */
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  /** WebAssembly heap of a worker (7-Zip's dictionaries and buffers); beyond it 7-Zip fails cleanly. */
  maxWasmHeapBytes: number;
  /** A worker whose WebAssembly heap grew past this is retired after its session. */
  retireHeapBytes: number;
  /** Sessions a worker serves before it is retired. */
  maxSessionsPerWorker: number;
}

export const DEFAULT_SEVENZIP_POOL_OPTIONS: Readonly<SevenZipPoolOptions> = Object.freeze({
  maxWorkers: Math.max(1, Math.min(2, availableParallelism())),
  maxOldGenerationSizeMb: 64,
  maxYoungGenerationSizeMb: 16,
  // RAR5 and 7z decoders allocate their dictionary: 256 MiB covers the defaults of WinRAR and 7-Zip
  // (up to -mx9); a larger dictionary is refused as unreadable rather than served.
  maxWasmHeapBytes: 256 * 1024 * 1024,
  retireHeapBytes: 64 * 1024 * 1024,
  maxSessionsPerWorker: 500,
});

const MIN_OLD_GENERATION_MB = 16;
const MIN_YOUNG_GENERATION_MB = 4;

export type SevenZipFailureReason = 'timeout' | 'crash' | 'failure';

/**
 * The worker could not answer: it timed out, died (including out of memory) or 7-Zip threw.
 * inspect-sevenzip.ts turns it into the catalogue's `archive_bomb` or `archive_unreadable`.
 */
export class SevenZipWorkerError extends Error {
  readonly reason: SevenZipFailureReason;
  /** The failure happened while an extraction was over its byte budget. */
  readonly overBudget: boolean;

  constructor(reason: SevenZipFailureReason, overBudget = false, options: { cause?: unknown } = {}) {
    super(`7-Zip worker ${reason}`, options);
    this.name = 'SevenZipWorkerError';
    this.reason = reason;
    this.overBudget = overBudget;
  }
}

/** What an inspection may ask of its worker during one session. */
export interface SevenZipSession {
  /** Writes bytes into the worker's memory; returns their path there. */
  load(bytes: Uint8Array): Promise<string>;
  list(file: string, maxEntries: number): Promise<ListResponse>;
  extract(request: Omit<ExtractRequest, 'op' | 'id'>): Promise<ExtractResponse>;
  read(file: string): Promise<Uint8Array>;
  remove(file: string): Promise<void>;
}

// Under the tests this module runs from its .ts source, and Node strips the worker's types itself.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './sevenzip-worker.ts' : './sevenzip-worker.js', import.meta.url);
// The worker needs no flag of the parent's (`--input-type` would even stop it from starting, and
// preloaded instrumentation would only cost memory), except type stripping where it is not on by default.
const WORKER_EXEC_ARGV = FROM_SOURCE && !process.features.typescript ? ['--experimental-strip-types'] : [];

/** The worker's folder for a session's files (see sevenzip-worker.ts). */
const SESSION_ROOT = '/intake';

let compiled: Promise<WebAssembly.Module> | undefined;

function wasmModule(): Promise<WebAssembly.Module> {
  if (compiled === undefined) {
    const main = createRequire(import.meta.url).resolve('7z-wasm');
    compiled = readFile(path.join(path.dirname(main), '7zz.wasm')).then((bytes) => WebAssembly.compile(bytes));
    compiled.catch(() => {
      compiled = undefined;
    });
  }
  return compiled;
}

/** A request before the pool numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  resolve: (response: SevenZipResponse) => void;
  reject: (error: Error) => void;
}

/** One worker and its requests in flight. */
class PooledWorker {
  readonly ready: Promise<void>;
  sessions = 0;
  heapBytes = 0;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: SevenZipWorkerError | undefined;

  constructor(module: WebAssembly.Module, options: SevenZipPoolOptions) {
    const workerData: SevenZipWorkerData = { wasmModule: module, maxWasmHeapBytes: options.maxWasmHeapBytes };
    this.worker = new Worker(WORKER_URL, {
      workerData,
      execArgv: WORKER_EXEC_ARGV,
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: options.maxYoungGenerationSizeMb,
      },
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: ReadyMessage | SevenZipResponse): void => {
        if (message.op === 'ready') {
          resolve();
          return;
        }
        this.settle(message);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', (error: Error) => {
        this.fail(new SevenZipWorkerError('crash', false, { cause: error }));
        reject(this.failure);
      });
      this.worker.on('exit', () => {
        this.fail(new SevenZipWorkerError('crash'));
        reject(this.failure);
      });
    });
    // A rejection nobody awaits yet (a worker dying while idle) is handled by `broken`.
    this.ready.catch(() => undefined);
  }

  get broken(): boolean {
    return this.failure !== undefined;
  }

  async request<T extends SevenZipResponse>(
    draft: Unnumbered<SevenZipRequest>,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    await this.ready;
    if (this.failure !== undefined) {
      throw this.failure;
    }
    const id = this.nextId++;
    const response = await new Promise<SevenZipResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...draft, id }, transfer);
    });
    this.heapBytes = response.heapBytes;
    if (response.op === 'failure') {
      const error = new SevenZipWorkerError('failure', response.overBudget);
      this.kill(error);
      throw error;
    }
    return response as T;
  }

  /** Ends the worker; every request in flight rejects with `error`. */
  kill(error: SevenZipWorkerError): void {
    this.fail(error);
    void this.worker.terminate();
  }

  ref(): void {
    this.worker.ref();
  }

  unref(): void {
    this.worker.unref();
  }

  private settle(response: SevenZipResponse): void {
    const pending = this.pending.get(response.id);
    if (pending !== undefined) {
      this.pending.delete(response.id);
      pending.resolve(response);
    }
  }

  private fail(error: SevenZipWorkerError): void {
    this.failure ??= error;
    for (const pending of this.pending.values()) {
      pending.reject(this.failure);
    }
    this.pending.clear();
  }
}

/** A bounded set of warm 7-Zip workers. */
export class SevenZipPool {
  private readonly options: SevenZipPoolOptions;
  private readonly idle: PooledWorker[] = [];
  private readonly waiting: Array<{ resolve: (worker: PooledWorker) => void; reject: (error: unknown) => void }> = [];
  private alive = 0;
  private closed = false;

  constructor(options: Partial<SevenZipPoolOptions> = {}) {
    const merged = { ...DEFAULT_SEVENZIP_POOL_OPTIONS, ...options };
    // Below these, Node cannot even create the worker's isolate and aborts the whole process.
    merged.maxOldGenerationSizeMb = Math.max(merged.maxOldGenerationSizeMb, MIN_OLD_GENERATION_MB);
    merged.maxYoungGenerationSizeMb = Math.max(merged.maxYoungGenerationSizeMb, MIN_YOUNG_GENERATION_MB);
    this.options = merged;
  }

  /**
   * Runs `work` with a worker of its own. Past `timeoutMs` (worker start included) the worker is
   * terminated and every pending call rejects with a `SevenZipWorkerError('timeout')`.
   */
  async run<T>(timeoutMs: number, work: (session: SevenZipSession) => Promise<T>): Promise<T> {
    const worker = await this.acquire();
    const timer = setTimeout(() => worker.kill(new SevenZipWorkerError('timeout')), timeoutMs);
    try {
      return await work(sessionOf(worker));
    } finally {
      // Still under the timer: a worker that hangs while cleaning up is killed too.
      await this.release(worker);
      clearTimeout(timer);
    }
  }

  /** Workers alive (idle or busy), for metrics and tests. */
  get size(): number {
    return this.alive;
  }

  /** Terminates every idle worker; workers in use end with their session. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    for (const worker of idle) {
      worker.kill(new SevenZipWorkerError('crash'));
    }
    this.alive -= idle.length;
  }

  private async acquire(): Promise<PooledWorker> {
    if (this.closed) {
      throw new Error('The 7-Zip pool is closed.');
    }
    let worker = this.idle.pop();
    // An idle worker may have died on its own (killed from outside): drop it.
    while (worker?.broken) {
      this.alive -= 1;
      worker = this.idle.pop();
    }
    worker ??= this.alive < this.options.maxWorkers ? await this.spawn() : await this.wait();
    worker.ref();
    worker.sessions += 1;
    return worker;
  }

  private wait(): Promise<PooledWorker> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async spawn(): Promise<PooledWorker> {
    this.alive += 1;
    try {
      return new PooledWorker(await wasmModule(), this.options);
    } catch (error) {
      this.alive -= 1;
      throw error;
    }
  }

  private async release(worker: PooledWorker): Promise<void> {
    if (!worker.broken) {
      // The archive's bytes do not stay in an idle worker.
      await worker.request({ op: 'remove', file: SESSION_ROOT }).catch(() => undefined);
    }
    const retire =
      this.closed ||
      worker.broken ||
      worker.heapBytes > this.options.retireHeapBytes ||
      worker.sessions >= this.options.maxSessionsPerWorker;
    if (retire) {
      worker.kill(new SevenZipWorkerError('crash'));
      this.alive -= 1;
    }
    const next = this.waiting.shift();
    if (next !== undefined) {
      if (retire) {
        this.spawn().then(next.resolve, next.reject);
      } else {
        next.resolve(worker);
      }
      return;
    }
    if (!retire) {
      worker.unref();
      this.idle.push(worker);
    }
  }
}

function sessionOf(worker: PooledWorker): SevenZipSession {
  return {
    load: async (bytes) => {
      // A copy the worker may own: the caller's buffer may be shared with other views.
      const copy = new Uint8Array(bytes);
      const response = await worker.request<LoadResponse>({ op: 'load', bytes: copy }, [copy.buffer]);
      return response.file;
    },
    list: (file, maxEntries) => worker.request<ListResponse>({ op: 'list', file, maxEntries }),
    extract: (request) => worker.request<ExtractResponse>({ op: 'extract', ...request }),
    read: async (file) => (await worker.request<ReadResponse>({ op: 'read', file })).bytes,
    remove: async (file) => {
      await worker.request({ op: 'remove', file });
    },
  };
}

let shared: SevenZipPool | undefined;

/** The process-wide pool, created on first use. */
export function sevenZipPool(): SevenZipPool {
  shared ??= new SevenZipPool();
  return shared;
}

/** Terminates the process-wide pool's idle workers (graceful shutdown, end of tests). */
export async function closeSevenZipPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
