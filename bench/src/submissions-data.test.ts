// A small run of the bench's data part on PostgreSQL (the bench's database): 200 seeded submissions,
// their secondary indexes rebuilt, and every filtered first page answered through the admin API with
// the count the seeding formula gives. Timings are never asserted: only that it measures the right set.
import { jest } from '@jest/globals';
import pg from 'pg';
import { createScratchPostgres, describeOnPostgres } from '@intake/shared/test';
import { measureFilteredPages, measureStatusCounts, seedSubmissions, withAdminApi } from './submissions-data.js';

jest.setTimeout(120_000);

async function submissionIndexes(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string }>(
      `select indexname as name from pg_indexes where tablename in ('submissions', 'submission_search') order by indexname`,
    );
    return result.rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describeOnPostgres('bench data part on postgresql', (serverUrl) => {
  it('seeds a form and measures each filtered first page over the admin API', async () => {
    const scratch = await createScratchPostgres(serverUrl);
    try {
      const figures = await withAdminApi(scratch.url, async (gql) => {
        const indexes = await submissionIndexes(scratch.url);
        expect(indexes).toContain('submission_search_search_text_trgm_index');
        const seeded = await seedSubmissions(scratch.url, 200);
        expect(seeded).toMatchObject({ submissions: 200, withFiles: 10 });
        expect(await submissionIndexes(scratch.url)).toEqual(indexes);
        return {
          queries: await measureFilteredPages(gql, seeded.formId, 1),
          statusCountsMs: await measureStatusCounts(gql, seeded.formId, 1),
        };
      });
      // n = 1..200: Élodie when n % 47 = 0, Zürich for n / 11 = 1, a file every 20th, one a minute back.
      expect(figures.queries.map((figure) => [figure.name, figure.matches])).toEqual([
        ['no filter (inbox)', 200],
        ['text, 1 in 10,000 ("quintanilla")', 0],
        ['text, 1 in 47 ("ELODIE")', 4],
        ['text in a nested value ("zurich")', 11],
        ['last 7 days', 200],
        ['has files', 10],
        ['text + last 30 days + has files', 0],
      ]);
      for (const figure of figures.queries) {
        expect([figure.medianMs, figure.countUpToMedianMs, figure.exactCountMedianMs].every((ms) => ms > 0)).toBe(true);
      }
      expect(figures.statusCountsMs).toBeGreaterThan(0);
    } finally {
      await scratch.drop();
    }
  });
});
