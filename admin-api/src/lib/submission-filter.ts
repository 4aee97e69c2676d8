// Which submissions of a form a list shows: the inbox or the Spam view, narrowed by a text query,
// creation bounds and whether files came with them. One SQL condition serves every reader of that set
// (the `submissions` connection and its totalCount, the export), so they cannot disagree.
//
// The text match runs in the database, over `submission_search.search_text` (written by the worker
// off the request path, docs/decisions/search-off-request-path.md), with the query put through the
// same `intake_search_normalize`, and a trigram (pg_trgm) index on that column serves the `like`
// (with the creation bounds, together with the search row's (form_id, created_at) index). A
// submission still queued for indexing is not found by text (`pendingSearchCount` says so). What is
// matched, and how: docs/submissions.md ("Finding submissions").

/** A validated filter; build it with `submissionFilterOf`. Every part null means all submissions. */
export interface SubmissionFilter {
  /** Text to find inside any value, as typed (3..200 characters); null for none. */
  query: string | null;
  /** Created at or after this instant (inclusive); null for no lower bound. */
  createdAfter: Date | null;
  /** Created strictly before this instant (exclusive); null for no upper bound. */
  createdBefore: Date | null;
  /** true: only submissions with at least one stored file; false: only those without; null: both. */
  hasFiles: boolean | null;
}

export const NO_SUBMISSION_FILTER: SubmissionFilter = Object.freeze({
  query: null,
  createdAfter: null,
  createdBefore: null,
  hasFiles: null,
});

/** A SQL condition with `?` placeholders (MikroORM's raw SQL convention) and its values in order. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const SQL_ALIAS = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The WHERE condition selecting the submissions of one form in the inbox (`spam` false) or the Spam
 * view (`spam` true), narrowed by `filter`. `alias` is the submissions table's alias in the caller's
 * query (`from "submissions" as s`); columns are qualified with it. Values are placeholders, never
 * spliced into the SQL, and `%`, `_` and `\` in the query match themselves.
 *
 * Use it as `where ${sql}` with `params`, e.g. `qb.where(sql, params)` or
 * `em.execute(\`select … from "submissions" as s where ${sql}\`, params)`.
 */
export function submissionFilterSql(
  formId: string,
  spam: boolean,
  filter: SubmissionFilter,
  alias = 's',
): SqlCondition {
  if (!SQL_ALIAS.test(alias)) {
    throw new Error('submissionFilterSql: alias must be a plain SQL identifier');
  }
  const conditions = [`${alias}.form_id = ?`, `${alias}.spam = ?`];
  const params: unknown[] = [formId, spam];
  if (filter.createdAfter !== null) {
    conditions.push(`${alias}.created_at >= ?`);
    params.push(filter.createdAfter);
  }
  if (filter.createdBefore !== null) {
    conditions.push(`${alias}.created_at < ?`);
    params.push(filter.createdBefore);
  }
  if (filter.hasFiles !== null) {
    const files = `exists (select 1 from stored_files as submission_filter_file where submission_filter_file.submission_id = ${alias}.id)`;
    conditions.push(filter.hasFiles ? files : `not ${files}`);
  }
  if (filter.query !== null) {
    // The pattern is built from the normalised query in SQL, then its LIKE wildcards are escaped
    // (backslash is LIKE's default escape character). Every function here is immutable, so the
    // planner folds the pattern to a constant and can use the trigram index. The creation bounds are
    // repeated on the search row's copy of `created_at`, so the (form_id, created_at) index narrows
    // the trigram match before its rows are rechecked (a BitmapAnd), instead of after every match of
    // the form is read.
    const search = ['submission_filter_search.form_id = ?'];
    params.push(formId);
    if (filter.createdAfter !== null) {
      search.push('submission_filter_search.created_at >= ?');
      params.push(filter.createdAfter);
    }
    if (filter.createdBefore !== null) {
      search.push('submission_filter_search.created_at < ?');
      params.push(filter.createdBefore);
    }
    search.push(
      `submission_filter_search.search_text like ` +
        `'%' || replace(replace(replace(public.intake_search_normalize(?), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`,
    );
    params.push(filter.query);
    conditions.push(
      `${alias}.id in (select submission_filter_search.submission_id from submission_search as submission_filter_search ` +
        `where ${search.join(' and ')})`,
    );
  }
  return { sql: conditions.join(' and '), params };
}
