// The submission search migration on the database under test: submissions stored before it are
// searchable once it has run (the index is over an expression, nothing to backfill), and it can be
// rolled back and applied again; the stored-text migration regenerates the search text of those
// already stored, so their quotes are found as typed; the search-off-request-path migration moves
// the text of stored submissions to `submission_search`, and its down() puts the column back; the
// search-created-at migration gives existing search rows their submission's creation time, which the
// text filter's date bounds then read.
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDriverName, type TestDatabase } from '@intake/shared/test';
import { submissionFilterSql, NO_SUBMISSION_FILTER } from '../lib/submission-filter.js';

jest.setTimeout(60_000);

const BEFORE_SEARCH = 'Migration20261123230000_spam_protection';
const BEFORE_STORED_TEXT = 'Migration20261126100000_sanitized_fields';
const BEFORE_SEARCH_TABLE = 'Migration20261130130000_notify_file_links';
const BEFORE_SEARCH_CREATED_AT = 'Migration20261201100000_search_off_request_path';

describe(`submission search migration on ${testDriverName()}`, () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await testDb?.close();
  });

  async function matching(formId: string, query: string, bounds: { createdAfter?: Date; createdBefore?: Date } = {}) {
    const { sql, params } = submissionFilterSql(formId, false, { ...NO_SUBMISSION_FILTER, query, ...bounds }, 'sub');
    const rows = await testDb.db.em
      .fork()
      .execute<{ id: string }[]>(`select sub.id from submissions as sub where ${sql} order by sub.id`, params);
    return rows.map((row) => row.id);
  }

  /** The same search while the text was a generated column of `submissions` (migrated up to BEFORE_SEARCH_TABLE). */
  async function matchingInColumn(formId: string, query: string): Promise<string[]> {
    const rows = await testDb.db.em.fork().execute<{ id: string }[]>(
      `select sub.id from submissions as sub where sub.form_id = ?
         and sub.search_text like '%' || public.intake_search_normalize(?) || '%' order by sub.id`,
      [formId, query],
    );
    return rows.map((row) => row.id);
  }

  /** A submission of the test's form stored as an older schema stores it (a plain row, nothing queued). */
  async function storeOldSubmission(data: Record<string, unknown>, createdAt = new Date()) {
    const em = testDb.db.em.fork();
    const [form] = await em.execute<{ id: string }[]>('select id from forms limit 1');
    const submissionId = randomUUID();
    await em.execute(`insert into submissions (id, form_id, data, created_at) values (?, ?, ?, ?)`, [
      submissionId,
      form!.id,
      JSON.stringify(data),
      createdAt,
    ]);
    return { em, formId: form!.id, submissionId };
  }

  it('makes earlier submissions searchable, and rolls back and forth', async () => {
    await testDb.db.migrator.up({ to: BEFORE_SEARCH });
    const em = testDb.db.em.fork();
    const siteId = randomUUID();
    const formId = randomUUID();
    const submissionId = randomUUID();
    await em.execute(
      `insert into sites (id, name, control_code, created_at, updated_at) values (?, 'Site', ?, now(), now())`,
      [siteId, randomUUID()],
    );
    await em.execute(
      `insert into forms (id, site_id, name, code, created_at, updated_at) values (?, ?, 'Form', ?, now(), now())`,
      [formId, siteId, randomUUID()],
    );
    await em.execute(`insert into submissions (id, form_id, data, created_at) values (?, ?, ?, now())`, [
      submissionId,
      formId,
      JSON.stringify({ answers: [{ text: 'Ünïcode Ärger' }] }),
    ]);

    await testDb.db.migrator.up();
    expect(await matching(formId, 'unicode ARGER')).toEqual([submissionId]);

    await testDb.db.migrator.down({ to: BEFORE_SEARCH });
    const functions = await em.execute<{ count: number }[]>(
      `select count(*)::int as count from pg_proc where proname like 'intake\\_%search%'`,
    );
    expect(functions[0]?.count).toBe(0);
    await testDb.db.migrator.up();
    expect(await matching(formId, 'ünicode')).toEqual([submissionId]);
  });

  it('reads the quotes of submissions stored before the stored-text migration once it has run', async () => {
    await testDb.db.migrator.down({ to: BEFORE_STORED_TEXT });
    // As the sanitiser stored `O'Brien said "hi"`.
    const { formId, submissionId } = await storeOldSubmission({ name: 'O&#39;Brien said &quot;hi&quot;' });
    expect(await matchingInColumn(formId, "o'brien")).toEqual([]);
    expect(await matchingInColumn(formId, '#39;')).toEqual([submissionId]);

    await testDb.db.migrator.up();
    expect(await matching(formId, "o'brien")).toEqual([submissionId]);
    expect(await matching(formId, 'said "hi')).toEqual([submissionId]);
    expect(await matching(formId, '#39;')).toEqual([]);
  });

  it('moves the search text of stored submissions to its own table, and back on down()', async () => {
    await testDb.db.migrator.down({ to: BEFORE_SEARCH_TABLE });
    const { em, formId, submissionId } = await storeOldSubmission({
      name: 'Grace Hopper',
      note: 'Café &amp; compilers',
    });
    expect(await matchingInColumn(formId, 'cafe & comp')).toEqual([submissionId]);

    await testDb.db.migrator.up();
    // Found at once: moved by the migration, not queued for the worker.
    expect(await matching(formId, 'cafe & comp')).toEqual([submissionId]);
    const columns = await em.execute<{ count: number }[]>(
      `select count(*)::int as count from information_schema.columns where table_name = 'submissions' and column_name = 'search_text'`,
    );
    expect(columns[0]?.count).toBe(0);

    await testDb.db.migrator.down({ to: BEFORE_SEARCH_TABLE });
    expect(await matchingInColumn(formId, 'grace hop')).toContain(submissionId);
    await testDb.db.migrator.up();
    expect(await matching(formId, 'grace hop')).toContain(submissionId);
  });

  it("gives stored search rows their submission's creation time, and drops it on down()", async () => {
    await testDb.db.migrator.down({ to: BEFORE_SEARCH_CREATED_AT });
    const createdAt = new Date(Date.UTC(2026, 0, 15, 9, 30));
    const { em, formId, submissionId } = await storeOldSubmission({ name: 'Lise Meitner' }, createdAt);
    // As the worker wrote it before the migration (no creation time on the row).
    await em.execute(
      `insert into submission_search (submission_id, form_id, search_text)
       select id, form_id, public.intake_submission_search_text(data) from submissions where id = ?`,
      [submissionId],
    );
    await em.execute('delete from submission_search_pending where submission_id = ?', [submissionId]);

    await testDb.db.migrator.up();
    const rows = await em.execute<{ same: boolean }[]>(
      `select ss.created_at = s.created_at as same from submission_search ss
        join submissions s on s.id = ss.submission_id where s.id = ?`,
      [submissionId],
    );
    expect(rows).toEqual([{ same: true }]);
    const day = 24 * 60 * 60 * 1000;
    const around = {
      createdAfter: new Date(createdAt.getTime() - day),
      createdBefore: new Date(createdAt.getTime() + day),
    };
    expect(await matching(formId, 'meitner', around)).toEqual([submissionId]);
    expect(await matching(formId, 'meitner', { createdAfter: new Date(createdAt.getTime() + 1) })).toEqual([]);

    await testDb.db.migrator.down({ to: BEFORE_SEARCH_CREATED_AT });
    const columns = await em.execute<{ count: number }[]>(
      `select count(*)::int as count from information_schema.columns where table_name = 'submission_search' and column_name = 'created_at'`,
    );
    expect(columns[0]?.count).toBe(0);
    // The data-change trigger of the earlier migration is back and still writes search rows.
    await em.execute('update submissions set data = ? where id = ?', [
      JSON.stringify({ name: 'Lise M.' }),
      submissionId,
    ]);
    await testDb.db.migrator.up();
    expect(await matching(formId, 'lise m.', around)).toEqual([submissionId]);
  });
});
