// A small run of the bench's export measurement on PostgreSQL (the bench's database): 300 seeded
// submissions exported as CSV and NDJSON by an admin API in its own process. Memory and speed are
// never asserted (a loaded CI machine says nothing about them): only that it measures the right set.
import { jest } from '@jest/globals';
import { createScratchPostgres, describeOnPostgres } from '@intake/shared/test';
import { seedSubmissions, withAdminApi } from './submissions-data.js';
import { measureExports } from './submissions-export.js';

jest.setTimeout(120_000);

describeOnPostgres('bench export measurement on postgresql', (serverUrl) => {
  it('downloads every seeded submission as CSV and NDJSON from a separate admin process', async () => {
    const scratch = await createScratchPostgres(serverUrl);
    try {
      // withAdminApi migrates the scratch database, as the bench does before it seeds.
      const seeded = await withAdminApi(scratch.url, () => seedSubmissions(scratch.url, 300));
      const steps: string[] = [];
      const figures = await measureExports(scratch.url, seeded.formId, (step) => steps.push(step));
      expect(figures.map((figure) => [figure.format, figure.rows])).toEqual([
        ['CSV', 300],
        ['NDJSON', 300],
      ]);
      expect(steps).toHaveLength(2);
      for (const figure of figures) {
        expect(figure.bytes).toBeGreaterThan(300 * 100);
        expect(figure.peakRss).toBeGreaterThan(0);
        // On PostgreSQL the rows come from an export process of the admin process's own.
        expect(figure.exportProcessPeakRss).toBeGreaterThan(0);
        expect(figure.rowsPerSecond).toBeGreaterThan(0);
      }
    } finally {
      await scratch.drop();
    }
  });
});
