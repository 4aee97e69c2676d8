// Values whose markup is costly to parse are sanitised in a worker thread (piscina), so one submission
// full of tags does not hold the event loop, and every other request with it, while jsdom parses: a
// value at the parse budget (32 strings of 511 tags) took 1 to 4 s on this project's 2-core machine.
// Values under INLINE_MARKUP_COST stay on this thread: plain text never reaches the parser, and a few
// tags cost less than the hand-over (a structured clone each way) would. The output is the same
// sanitizeSubmission's, wherever it runs.
import { availableParallelism } from 'node:os';
import { AppError } from '@intake/shared/errors';
import type { Piscina } from 'piscina';
import { markupCost, sanitizeSubmission, type SanitizedSubmission } from './sanitize.js';

/** Parse cost (tags, see sanitize.ts) up to which a value is sanitised inline: a millisecond or two. */
export const INLINE_MARKUP_COST = 64;

/** Values waiting for a thread beyond which a submission is answered 503. */
const MAX_QUEUED = 64;
/** An idle thread (and the jsdom it loaded, tens of MB) ends after this. */
const IDLE_TIMEOUT_MS = 60_000;

// Under the tests this module runs from its .ts source; the thread always runs the build (`tsc -b`),
// whose sanitize.js imports resolve without a loader.
const WORKER_URL = new URL(
  './sanitize-worker.js',
  import.meta.url.endsWith('.ts')
    ? import.meta.url.replace(/\/src\/submission\/[^/]+$/, '/dist/submission/')
    : import.meta.url,
);

export interface SanitiserPoolOptions {
  maxThreads: number;
  /** Values waiting for a thread beyond which a submission is answered 503 (the gateway is saturated). */
  maxQueued: number;
}

export interface SanitiserPool {
  /** sanitizeSubmission, in a worker thread when the value's markup is costly to parse. */
  sanitize(value: unknown): Promise<SanitizedSubmission>;
  /** Ends the threads. */
  close(): Promise<void>;
}

export function createSanitiserPool(options: SanitiserPoolOptions): SanitiserPool {
  let threads: Piscina | undefined;
  return {
    async sanitize(value) {
      if (markupCost(value) <= INLINE_MARKUP_COST) {
        return sanitizeSubmission(value);
      }
      // Threads start on the first costly value, and piscina is loaded then: most gateways never see one.
      if (threads === undefined) {
        const { Piscina: Pool } = await import('piscina');
        threads ??= new Pool({
          filename: WORKER_URL.href,
          minThreads: 0,
          maxThreads: options.maxThreads,
          idleTimeout: IDLE_TIMEOUT_MS,
        });
      }
      if (threads.queueSize >= options.maxQueued) {
        throw new AppError('service_unavailable', 'The gateway is busy. Retry later.', { retryAfter: 1 });
      }
      return threads.run(value) as Promise<SanitizedSubmission>;
    },
    async close() {
      const closing = threads;
      threads = undefined;
      await closing?.destroy();
    },
  };
}

// One pool per process, like the 7-Zip workers: the threads serve every gateway app in it.
let shared: SanitiserPool | undefined;

/** sanitizeSubmission, in the process's worker threads when the value's markup is costly to parse. */
export function sanitizeSubmittedValue(value: unknown): Promise<SanitizedSubmission> {
  shared ??= createSanitiserPool({
    // Leaves a core for the event loop, which keeps answering everything else meanwhile.
    maxThreads: Math.max(1, availableParallelism() - 1),
    maxQueued: MAX_QUEUED,
  });
  return shared.sanitize(value);
}

/** Ends the threads (the gateway's close); a later costly value starts new ones. */
export async function closeSanitiserPool(): Promise<void> {
  const closing = shared;
  shared = undefined;
  await closing?.close();
}
