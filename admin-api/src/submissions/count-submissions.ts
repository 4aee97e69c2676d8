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
