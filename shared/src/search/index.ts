// The search index's queue (docs/decisions/search-off-request-path.md): an INSERT into `submissions`
// queues its ids in `submission_search_pending` (a trigger), and `indexPendingSubmissions` turns
// queued ids into `submission_search` rows. The worker calls it in a loop (worker/src/search); tests
// call it to index at once, and `pendingSearchCount` tells the admin API that a form is indexing.
import type { Database, Em } from '../db/index.js';

/** How many queued submissions one call indexes at most: one statement, one transaction. */
export const SEARCH_INDEX_BATCH = 500;

// One statement, hence one transaction: take queued rows no other worker holds (SKIP LOCKED), write
// their search rows computed in SQL by the column's former function (with the submission's form and
// creation time, which the text filter's date bounds read), delete them from the queue.
// ON CONFLICT DO NOTHING: a row already there was written by the data-change trigger from newer data.
// A queued id whose submission is gone joins nothing and is only deleted.
const INDEX_PENDING = `with "taken" as (
    select "submission_id" from "submission_search_pending" limit ? for update skip locked
  ), "indexed" as (
    insert into "submission_search" ("submission_id", "form_id", "search_text", "created_at")
    select s."id", s."form_id", coalesce(public.intake_submission_search_text(s."data"), ''), s."created_at"
    from "taken" t join "submissions" s on s."id" = t."submission_id"
    on conflict ("submission_id") do nothing
  )
  delete from "submission_search_pending" p using "taken" t where p."submission_id" = t."submission_id"
  returning p."submission_id"`;

/** Indexes up to `limit` queued submissions; returns how many queue rows it took (0: none left for it). */
export async function indexPendingSubmissions(db: Database, limit = SEARCH_INDEX_BATCH): Promise<number> {
  const rows = await db.em.fork().execute<{ submission_id: string }[]>(INDEX_PENDING, [limit]);
  return rows.length;
}

/** Indexes until the queue is empty (tests and seeders that search right after writing). */
export async function indexAllPendingSubmissions(db: Database): Promise<void> {
  while ((await indexPendingSubmissions(db)) > 0) {
    // next batch
  }
}

/** How many of the form's submissions wait for their search row; 0 when a text search is exact. */
export async function pendingSearchCount(em: Em, formId: string): Promise<number> {
  const rows = await em.execute<{ count: number }[]>(
    'select count(*)::int as "count" from "submission_search_pending" where "form_id" = ?',
    [formId],
  );
  return rows[0]?.count ?? 0;
}
