// The search indexer on the database under test: a new submission is queued by its INSERT, not
// found by text until the worker has indexed it (within about a second), then found; a change of
// its data is followed at once, without the worker; deleting it deletes its search row. The search
// row carries the submission's creation time (the text filter's date bounds read it), written by the
// indexer and kept by a change of the data or of the time.
import { setTimeout as sleep } from 'node:timers/promises';
import { pendingSearchCount } from '@intake/shared/search';
import { createTestServices, makeForm, makeSite, makeStoredSubmission, testDriverName } from '@intake/shared/test';
import { createSearchIndexer, type SearchIndexer } from './search-indexer.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;
let formId: string;
let indexer: SearchIndexer | undefined;

beforeAll(async () => {
  services = await createTestServices();
  const { site } = await makeSite(services);
  formId = (await makeForm(services, site)).id;
}, 60_000);

afterAll(async () => {
  await indexer?.close();
  await services?.close();
});

/** The form's submissions whose search row holds `query` (the admin API's filter reads the same rows). */
async function found(query: string): Promise<string[]> {
  const rows = await services.db.em.fork().execute<{ id: string }[]>(
    `select submission_id as id from submission_search
      where form_id = ? and search_text like '%' || public.intake_search_normalize(?) || '%' order by 1`,
    [formId, query],
  );
  return rows.map((row) => row.id);
}

/** Whether the submission's search row carries its `created_at`. */
async function searchDateIsSubmissions(id: string): Promise<boolean> {
  const rows = await services.db.em.fork().execute<{ same: boolean }[]>(
    `select ss.created_at = s.created_at as same from submission_search ss
      join submissions s on s.id = ss.submission_id where s.id = ?`,
    [id],
  );
  return rows[0]?.same ?? false;
}

describe(`search indexer on ${testDriverName()}`, () => {
  it('indexes a new submission within about a second; until then it is queued and not found', async () => {
    const { id } = await makeStoredSubmission(services, formId, { data: { name: 'Katherine Johnson' } });
    expect(await pendingSearchCount(services.db.em.fork(), formId)).toBe(1);
    expect(await found('katherine')).toEqual([]);

    indexer = createSearchIndexer(services, { pollMs: 50 });
    const started = Date.now();
    indexer.start();
    while ((await pendingSearchCount(services.db.em.fork(), formId)) > 0 && Date.now() - started < 5_000) {
      await sleep(10);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await found('katherine')).toEqual([id]);
    expect(await searchDateIsSubmissions(id)).toBe(true);
    await indexer.close();
    indexer = undefined;
  });

  it('follows a change of the data at once, and deletes the search row with the submission', async () => {
    const { id } = await makeStoredSubmission(services, formId, { data: { name: 'Dorothy Vaughan' } });
    const em = services.db.em.fork();
    // Still queued (no worker runs): the change writes the search row itself.
    await em.execute(`update submissions set data = ? where id = ?`, [JSON.stringify({ name: '[erased]' }), id]);
    expect(await found('erased')).toEqual([id]);
    expect(await found('dorothy')).toEqual([]);
    await em.execute(`update submissions set data = ? where id = ?`, [JSON.stringify({ name: 'Mary Jackson' }), id]);
    expect(await found('mary jack')).toEqual([id]);
    expect(await found('erased')).toEqual([]);

    // The search row written by the change carries the submission's creation time.
    expect(await searchDateIsSubmissions(id)).toBe(true);

    await em.execute(`delete from submissions where id = ?`, [id]);
    const rows = await em.execute<{ count: number }[]>(
      'select count(*)::int as count from submission_search where submission_id = ?',
      [id],
    );
    expect(rows[0]?.count).toBe(0);
    // The queued id of a submission gone is dropped by the next batch.
    indexer = createSearchIndexer(services, { pollMs: 50 });
    indexer.start();
    const started = Date.now();
    while ((await pendingSearchCount(services.db.em.fork(), formId)) > 0 && Date.now() - started < 5_000) {
      await sleep(10);
    }
    expect(await pendingSearchCount(services.db.em.fork(), formId)).toBe(0);
  });

  it('follows a change of the creation time at once', async () => {
    const { id } = await makeStoredSubmission(services, formId, { data: { name: 'Annie Easley' } });
    const em = services.db.em.fork();
    await em.execute(`update submissions set created_at = created_at - interval '3 days' where id = ?`, [id]);
    expect(await searchDateIsSubmissions(id)).toBe(true);
    expect(await found('annie eas')).toEqual([id]);
  });
});
