// Tests that search right after writing wait for the search index (docs/decisions/search-off-request-path.md)
// instead of sleeping: the queued rows are indexed here at once, as the worker would (whether or not
// one runs), then the form's queue is awaited empty (rows a running worker holds are its to finish).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/index.js';
import { indexAllPendingSubmissions, pendingSearchCount } from '../search/index.js';

/** Resolves once none of the form's submissions waits for its search row; throws after `timeoutMs`. */
export async function searchIndexed(db: Database, formId: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await indexAllPendingSubmissions(db);
    if ((await pendingSearchCount(db.em.fork(), formId)) === 0) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`form ${formId} still has submissions waiting for the search index after ${timeoutMs} ms`);
    }
    await sleep(20);
  }
}
