// The export process on a real PostgreSQL server, behind a real admin API: it is started for a
// download, ended when the client goes away, and a failure half-way breaks the download instead of
// ending it like a whole file. (The formats and filters are covered by submission-export.test.ts,
// which runs through this process on PostgreSQL and inside the admin API on PGlite.)
import { readdirSync, readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { isServiceOutage } from '@intake/shared/outage';
import { describeOnPostgres } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';
import { ExportProcessError, startExportProcess } from './export-process-client.js';

jest.setTimeout(60_000);

const CREATE_EXPORT = `mutation($formId: ID!, $format: SubmissionExportFormat!) {
  createSubmissionExport(formId: $formId, format: $format) { url }
}`;
const ROWS = 40_000;

/** The export processes this (jest) process has started and that are still running. */
function exportProcesses(): number[] {
  return readdirSync('/proc/self/task')
    .flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('export-process.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the export process when it cannot connect', () => {
  it('fails before its first byte with what the admin API classifies as an outage (503)', async () => {
    const failure = await startExportProcess({
      // Nothing listens on port 1.
      databaseUrl: 'postgres://postgres@127.0.0.1:1/postgres',
      connectionTimeoutMs: 2000,
      formId: '00000000-0000-4000-8000-000000000000',
      format: 'NDJSON',
      spam: false,
      filter: { query: null, createdAfter: null, createdBefore: null, hasFiles: null },
      columns: null,
      notes: false,
      fileLinks: { jwtSecret: 'x'.repeat(32), ttlSeconds: 60, origin: 'http://127.0.0.1' },
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ExportProcessError);
    expect(isServiceOutage(failure)).toBe(true);
    expect(exportProcesses()).toEqual([]);
  });
});

describeOnPostgres('the export process on postgresql', () => {
  let admin: TestAdmin;
  let token: string;
  let formId: string;

  const exportUrl = async (format: string): Promise<string> => {
    const result = await admin.gql<{ createSubmissionExport: { url: string } }>(
      CREATE_EXPORT,
      { formId, format },
      token,
    );
    return result.data!.createSubmissionExport.url;
  };

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    const { site } = await makeSite(admin.services);
    formId = (await makeForm(admin.services, site)).id;
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(
        `insert into "submissions" ("id", "form_id", "data", "created_at", "spam")
         select gen_random_uuid(), ?, jsonb_build_object('message', repeat('x', 400), 'n', n),
           now() - n * interval '1 second', false
         from generate_series(1, ?) as n`,
        [formId, ROWS],
        'run',
      );
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('runs for a download and ends when the client goes away', async () => {
    const aborted = new AbortController();
    const response = await fetch(await exportUrl('NDJSON'), { signal: aborted.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    // About 18 MB: far more than the pipes and sockets between hold, so the process is still writing.
    expect(exportProcesses()).toHaveLength(1);
    aborted.abort();
    await until(() => exportProcesses().length === 0);
  });

  it('breaks the download when it fails half-way, never ending it like a whole file', async () => {
    const response = await fetch(await exportUrl('CSV'));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    // An administrator ends the export's database session while the client is still reading.
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'intake export' and datname = current_database()`,
        [],
        'all',
      );
    const rest = (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) {
          return 'ended like a whole file';
        }
      }
    })();
    await expect(rest).rejects.toThrow();
    await until(() => exportProcesses().length === 0);
  });
});
