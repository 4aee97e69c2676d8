// Spam retention: spam older than 30 days is deleted with its stored files, in batches, by any
// number of concurrent sweeps, and by the retention schedule on its own; good submissions and recent
// spam stay.
import { createRetentionSchedule } from './retention-schedule.js';
import { SubmissionSchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { hasStoredObject, makeForm, makeSite, makeStoredSubmission } from '@intake/shared/test';
import { createTestServices } from '@intake/shared/test';
import { deleteExpiredSpam, SPAM_RETENTION_MS } from './spam-retention.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

const DAY = 24 * 60 * 60 * 1000;

let services: TestServices;
let formId: string;

beforeAll(async () => {
  services = await createTestServices();
  const { site } = await makeSite(services);
  formId = (await makeForm(services, site)).id;
}, 60_000);

afterAll(async () => {
  await services?.close();
});

/** A submission of `ageMs` with one stored file; resolves with its id and the file's storage key. */
async function submission(spam: boolean, ageMs: number): Promise<{ id: string; key: string }> {
  const made = await makeStoredSubmission(services, formId, { spam, createdAt: new Date(Date.now() - ageMs) });
  return { id: made.id, key: made.storageKey };
}

async function exists(entry: { id: string; key: string }): Promise<{ row: boolean; file: boolean }> {
  const row = (await services.db.em.fork().count(SubmissionSchema, { id: entry.id })) === 1;
  return { row, file: await hasStoredObject(services, entry.key) };
}

describe(`spam retention on ${testDriverName()}`, () => {
  it('deletes spam older than 30 days with its files, in batches, and keeps everything else', async () => {
    const old = await Promise.all([1, 2, 3, 4, 5].map(() => submission(true, SPAM_RETENTION_MS + DAY)));
    const recentSpam = await submission(true, SPAM_RETENTION_MS - DAY);
    const oldGood = await submission(false, SPAM_RETENTION_MS * 3);

    expect(await deleteExpiredSpam(services, { batchSize: 2 })).toBe(5);
    for (const entry of old) {
      expect(await exists(entry)).toEqual({ row: false, file: false });
    }
    expect(await exists(recentSpam)).toEqual({ row: true, file: true });
    expect(await exists(oldGood)).toEqual({ row: true, file: true });
    expect(await deleteExpiredSpam(services)).toBe(0);
  });

  it('lets concurrent sweeps share the work without taking a submission twice', async () => {
    const old = await Promise.all(Array.from({ length: 12 }, () => submission(true, SPAM_RETENTION_MS + DAY)));
    const counts = await Promise.all([1, 2, 3].map(() => deleteExpiredSpam(services, { batchSize: 2 })));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(12);
    for (const entry of old) {
      expect(await exists(entry)).toEqual({ row: false, file: false });
    }
  });

  it('runs on the retention schedule at start', async () => {
    const old = await submission(true, SPAM_RETENTION_MS + DAY);
    const schedule = createRetentionSchedule(services);
    schedule.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await services.db.em.fork().count(SubmissionSchema, { id: old.id })) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await schedule.close();
    }
    expect(await exists(old)).toEqual({ row: false, file: false });
  });
});
