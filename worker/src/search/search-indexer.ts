// The search indexer: writes the search rows of new submissions off the request path
// (docs/decisions/search-off-request-path.md). It polls the queue every SEARCH_POLL_MS (a poll on
// an empty queue is one index probe) and, while a batch comes back full, takes the next at once, so
// a submission is searchable about a quarter of a second after its commit. Any number of workers
// share the queue (SKIP LOCKED); a failed batch stays queued and is taken again at the next poll.
import { indexPendingSubmissions, SEARCH_INDEX_BATCH } from '@intake/shared/search';
import type { Services } from '@intake/shared/services';

/** Between polls of an empty (or not full) queue. */
export const SEARCH_POLL_MS = 250;

export interface SearchIndexerOptions {
  pollMs?: number;
  batchSize?: number;
}

export interface SearchIndexer {
  /** Polls until `close`. */
  start(): void;
  /** Stops polling and waits for the batch under way. */
  close(): Promise<void>;
}

export function createSearchIndexer(services: Services, options: SearchIndexerOptions = {}): SearchIndexer {
  const pollMs = options.pollMs ?? SEARCH_POLL_MS;
  const batchSize = options.batchSize ?? SEARCH_INDEX_BATCH;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = true;

  async function drain(): Promise<void> {
    try {
      while (!stopped && (await indexPendingSubmissions(services.db, batchSize)) === batchSize) {
        // a full batch: more may wait
      }
    } catch (error) {
      services.logger.warn({ err: error }, 'search indexing failed; retrying at the next poll');
    }
  }

  function tick(): void {
    running = drain().then(() => {
      if (!stopped) {
        timer = setTimeout(tick, pollMs);
        timer.unref();
      }
    });
  }

  return {
    start() {
      if (!stopped) {
        return;
      }
      stopped = false;
      tick();
    },
    async close() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
