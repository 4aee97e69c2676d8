// The audit log's tables put back as they were, so that the audit suites share one database per file
// (a PGlite copy or a scratch PostgreSQL database costs seconds) and each test still starts at entry 1.
import type { Database } from '../db/orm.js';

const AUDIT_TABLES = ['audit_log', 'audit_checkpoints', 'audit_chain_head'] as const;

/** Saves the audit tables' rows now; the function it resolves with restores exactly those rows. */
export async function saveAuditTables(db: Database): Promise<() => Promise<void>> {
  const saved = new Map<string, string>();
  for (const table of AUDIT_TABLES) {
    const [row] = await db.em
      .fork()
      .execute<{ rows: unknown }[]>(`select coalesce(json_agg("t"), '[]'::json) as "rows" from "${table}" as "t"`);
    // The driver hands json back parsed on PostgreSQL and as text on PGlite.
    saved.set(table, typeof row!.rows === 'string' ? row!.rows : JSON.stringify(row!.rows));
  }
  return async () => {
    await db.em.fork().transactional(async (em) => {
      for (const table of AUDIT_TABLES) {
        await em.execute(`delete from "${table}"`);
        await em.execute(`insert into "${table}" select * from json_populate_recordset(null::"${table}", ?::json)`, [
          saved.get(table),
        ]);
      }
    });
  };
}
