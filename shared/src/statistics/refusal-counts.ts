// The table of refusals per UTC day and error code: gateways add to it, the admin API reads it.
// Rows hold a day, a catalogue code and a number; nothing of the refused request.
import type { Database, Em } from '../db/orm.js';
import { lastUtcDays } from './utc-days.js';

/** Days kept: as many as the longest period the statistics can be asked for. */
export const REFUSAL_COUNT_RETENTION_DAYS = 90;

export interface RefusalCountRow {
  day: string;
  code: string;
  count: number;
}

/**
 * Adds counts in one statement. The upsert adds to what is there, so several gateways flushing the
 * same day and code add up, and a statement that fails adds nothing (the caller keeps its counts).
 */
export async function addRefusalCounts(db: Database, given: readonly RefusalCountRow[]): Promise<void> {
  // One statement may not update a row twice: a day and code given twice are added first.
  const merged = new Map<string, RefusalCountRow>();
  for (const row of given) {
    const key = `${row.day} ${row.code}`;
    merged.set(key, { ...row, count: (merged.get(key)?.count ?? 0) + row.count });
  }
  const rows = [...merged.values()];
  if (rows.length === 0) {
    return;
  }
  const values = rows.map(() => '(?::date, ?, ?)').join(', ');
  await db.em.fork().execute(
    `insert into "refusal_counts" ("day", "code", "count") values ${values}
     on conflict ("day", "code") do update set "count" = "refusal_counts"."count" + excluded."count"`,
    rows.flatMap((row) => [row.day, row.code, row.count]),
    'run',
  );
}

/** Deletes the days older than the retention; resolves with how many rows went. */
export async function deleteOldRefusalCounts(db: Database, now: Date = new Date()): Promise<number> {
  const [oldestKept] = lastUtcDays(REFUSAL_COUNT_RETENTION_DAYS, now);
  const result = await db.em
    .fork()
    .execute<{ affectedRows?: number }>(`delete from "refusal_counts" where "day" < ?::date`, [oldestKept], 'run');
  return result.affectedRows ?? 0;
}

/** Counts from `fromDay` (a `YYYY-MM-DD`, inclusive) on, each capped to a 32-bit integer. */
export async function readRefusalCounts(em: Em, fromDay: string): Promise<RefusalCountRow[]> {
  return em.execute<RefusalCountRow[]>(
    `select to_char("day", 'YYYY-MM-DD') as "day", "code", least("count", 2147483647)::int as "count"
       from "refusal_counts" where "day" >= ?::date order by "code", "day"`,
    [fromDay],
    'all',
  );
}
