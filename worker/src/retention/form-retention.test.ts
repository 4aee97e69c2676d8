// Form retention: a form's expired submissions (spam included) go with their stored files and
// deliveries, in batches, by two sweeps at once without a double delete; fresh submissions,
// forms without a retention and other forms' rows stay. The retention schedule runs it at start.
import { createRetentionSchedule } from './retention-schedule.js';
import {
  AuditEntrySchema,
  DeliveryAttemptSchema,
  DeliverySchema,
  StoredFileSchema,
  SubmissionSchema,
} from '@intake/shared/entities';
import { eraseSubmissions, retentionDeletionDate } from '@intake/shared/lifecycle';
import { testDriverName } from '@intake/shared/test';
import { hasStoredObject, makeForm, makeSite, makeStoredSubmission } from '@intake/shared/test';
import { createTestServices } from '@intake/shared/test';
import { deleteExpiredSubmissions } from './form-retention.js';
import { runRetention } from './retention-run.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;
type Made = Awaited<ReturnType<typeof makeStoredSubmission>>;

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY);

let services: TestServices;

beforeAll(async () => {
  services = await createTestServices();
}, 60_000);

afterAll(async () => {
  await services?.close();
});

/** Whether the submission's row, file row, object and delivery rows are still there. */
async function remains(made: Made): Promise<{ row: boolean; file: boolean; object: boolean; delivery: boolean }> {
  const em = services.db.em.fork();
  return {
    row: (await em.count(SubmissionSchema, { id: made.id })) === 1,
    file: (await em.count(StoredFileSchema, { storageKey: made.storageKey })) === 1,
    object: await hasStoredObject(services, made.storageKey),
    delivery: (await em.count(DeliverySchema, { id: made.deliveryId })) === 1,
  };
}

const GONE = { row: false, file: false, object: false, delivery: false };
const KEPT = { row: true, file: true, object: true, delivery: true };

describe(`form retention on ${testDriverName()}`, () => {
  it('deletes exactly the expired submissions of forms with a retention, with two sweeps at once', async () => {
    const { site } = await makeSite(services);
    const weekly = await makeForm(services, site, { retentionDays: 7 });
    // A deleted form keeps its setting: its submissions still expire.
    const monthly = await makeForm(services, site, { retentionDays: 30, deletedAt: new Date() });
    const forever = await makeForm(services, site);
    const make = (formId: string, days: number, spam = false) =>
      makeStoredSubmission(services, formId, { createdAt: daysAgo(days), spam, delivered: days % 2 === 0 });

    const expired = await Promise.all([
      ...[8, 9, 10, 11, 12, 20, 30].map((days) => make(weekly.id, days)),
      make(weekly.id, 8, true),
      ...[31, 32, 60].map((days) => make(monthly.id, days)),
    ]);
    const fresh = await Promise.all([
      make(weekly.id, 6),
      make(weekly.id, 6.9, true),
      make(monthly.id, 29),
      ...[8, 400, 4000].map((days) => make(forever.id, days)),
    ]);

    const [first, second] = await Promise.all([
      deleteExpiredSubmissions(services, { batchSize: 2 }),
      deleteExpiredSubmissions(services, { batchSize: 2 }),
    ]);
    // Together exactly once each: SKIP LOCKED shares the rows, nobody deletes one twice.
    expect(first.deleted + second.deleted).toBe(expired.length);
    const perForm = new Map<string, number>();
    for (const entry of [...first.forms, ...second.forms]) {
      perForm.set(entry.formId, (perForm.get(entry.formId) ?? 0) + entry.deleted);
    }
    expect(Object.fromEntries(perForm)).toEqual({ [weekly.id]: 8, [monthly.id]: 3 });

    for (const made of expired) {
      expect(await remains(made)).toEqual(GONE);
    }
    for (const made of fresh) {
      expect(await remains(made)).toEqual(KEPT);
    }
    // Attempts went with their deliveries.
    const attempts = await services.db.em
      .fork()
      .count(DeliveryAttemptSchema, { delivery: { $in: expired.map((made) => made.deliveryId) } });
    expect(attempts).toBe(0);
    expect((await deleteExpiredSubmissions(services)).deleted).toBe(0);
  });

  it('shares rows with an erasure running at the same time: each deleted once, no deadlock', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site, { retentionDays: 1 });
    const rows = await Promise.all(
      Array.from({ length: 30 }, () => makeStoredSubmission(services, form.id, { createdAt: daysAgo(2) })),
    );
    // The erasure names them in the reverse order of the retention's batches.
    const [retention, erasure] = await Promise.all([
      deleteExpiredSubmissions(services, { batchSize: 3 }),
      eraseSubmissions(services, rows.map((row) => row.id).reverse()),
    ]);
    expect(retention.deleted + erasure.erasedIds.length).toBe(rows.length);
    expect(erasure.erasedIds.length + erasure.notFoundIds.length).toBe(rows.length);
    for (const made of rows) {
      expect(await remains(made)).toEqual(GONE);
    }
  });

  it('computes the deletion date from the oldest submission', () => {
    const createdAt = new Date('2026-01-01T10:00:00.000Z');
    expect(retentionDeletionDate(createdAt, 30).toISOString()).toBe('2026-01-31T10:00:00.000Z');
  });

  it('runs spam and form retention together and reports the run', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site, { retentionDays: 1 });
    const expired = await makeStoredSubmission(services, form.id, { createdAt: daysAgo(2) });
    const spamForm = await makeForm(services, site);
    const oldSpam = await makeStoredSubmission(services, spamForm.id, { createdAt: daysAgo(31), spam: true });
    const run = await runRetention(services, { workerId: 'test-worker' });
    expect(run).toMatchObject({
      workerId: 'test-worker',
      spamDeleted: 1,
      formRetention: { deleted: 1, forms: [{ formId: form.id, deleted: 1 }] },
    });
    expect(run.finishedAt.getTime()).toBeGreaterThanOrEqual(run.startedAt.getTime());
    expect(await remains(expired)).toEqual(GONE);
    expect(await remains(oldSpam)).toEqual(GONE);
    // Recorded in the audit log, counts only.
    const entries = await services.db.em.fork().find(AuditEntrySchema, { action: 'retention.run' });
    const entry = entries.find((candidate) => candidate.details?.workerId === 'test-worker');
    expect(entry).toMatchObject({
      actorKind: 'system',
      actorName: 'retention',
      outcome: 'success',
      details: { spamDeleted: 1, submissionsDeleted: 1, forms: [`${form.id}:1`] },
    });
  });

  it('runs on the retention schedule at start and then at its interval', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site, { retentionDays: 3 });
    const gone = async (made: Made): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while ((await remains(made)).row && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await remains(made)).toEqual(GONE);
    };
    const atStart = await makeStoredSubmission(services, form.id, { createdAt: daysAgo(4) });
    const schedule = createRetentionSchedule(services, { intervalMs: 200 });
    schedule.start();
    try {
      await gone(atStart);
      // Expired after the first run: only a later run can take it.
      const later = await makeStoredSubmission(services, form.id, { createdAt: daysAgo(5) });
      await gone(later);
    } finally {
      await schedule.close();
    }
  });
});
