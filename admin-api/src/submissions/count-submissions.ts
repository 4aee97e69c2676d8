import type { Em } from '@intake/shared/db';
import type { SqlCondition } from '../lib/submission-filter.js';

/** How many submissions a view and its filter hold (exact: reads every match). */
export async function countSubmissions(em: Em, selection: SqlCondition): Promise<number> {
  const [counted] = await em.execute<{ total: number }[]>(
    `select count(*)::int as total from submissions as s where ${selection.sql}`,
    selection.params,
  );
  return counted?.total ?? 0;
}

/** A count that stops after `limit` matches: `more` says there are others. */
export interface CountUpTo {
  count: number;
  more: boolean;
}

/**
 * How many submissions a view and its filter hold, up to `limit`: the database stops reading after
 * `limit` + 1 matches, so a broad filter on a big form costs what a small one does.
 */
export async function countSubmissionsUpTo(em: Em, selection: SqlCondition, limit: number): Promise<CountUpTo> {
  const [counted] = await em.execute<{ total: number }[]>(
    `select count(*)::int as total from (select 1 from submissions as s where ${selection.sql} limit ?) as up_to`,
    [...selection.params, limit + 1],
  );
  const total = counted?.total ?? 0;
  return { count: Math.min(total, limit), more: total > limit };
}
