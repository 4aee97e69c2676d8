// Group commit on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): writes of
// concurrent requests share one statement and one commit, and a row the group cannot write fails
// alone. Rows written by one transaction share its id (xmin): that is how the test sees the groups
// in the database itself, not only in the committer's counts.
import { randomUUID } from 'node:crypto';
import { DeliverySchema, FormSchema, StoredFileSchema, SubmissionSchema, type Site } from '@intake/shared/entities';
import { isOutage } from '@intake/shared/outage';
import {
  createOutageDatabase,
  createTestServices,
  describeOnPostgres,
  makeForm,
  makeSite,
  makeWebhook,
} from '@intake/shared/test';
import type { Services } from '@intake/shared/services';
import { submissionRecord } from '../test/submission-record.js';
import { submissionStore, type WriteOutcome } from './submission-store.js';

const record = submissionRecord;

/** The transaction each submission was written by (its xmin), by id; absent when not stored. */
async function transactionsOf(services: Services, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await services.db.em
    .fork()
    .execute<{ id: string; xmin: string }[]>(
      `select "id", xmin::text as "xmin" from "submissions" where "id" in (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
  return new Map(rows.map((row) => [row.id, row.xmin]));
}

const storedId = (written: WriteOutcome) => (written.outcome === 'stored' ? written.answer.id : written.outcome);

describe('group commit of submissions', () => {
  let services: Awaited<ReturnType<typeof createTestServices>>;
  let site: Site;

  beforeAll(async () => {
    services = await createTestServices();
    ({ site } = await makeSite(services));
  });

  afterAll(async () => {
    await services.close();
  });

  it('writes concurrent submissions in fewer statements and commits than requests, each with its files', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const form = await makeForm(services, site);
    const given = Array.from({ length: 20 }, () => record(site, form));
    const written = await Promise.all(given.map((submission) => store.write(submission)));

    expect(written.map(storedId)).toEqual(given.map((submission) => submission.id));
    // The first one alone, at once; the 19 that came while it was written, together.
    expect(store.groupCounts).toEqual({ groups: 2, rows: 20, largestGroup: 19 });
    const transactions = await transactionsOf(
      services,
      given.map((submission) => submission.id),
    );
    expect(new Set(transactions.values()).size).toBe(2);
    const em = services.db.em.fork();
    // Each queued for the search index (submission_search_pending) by the transaction that stored it.
    const queued = await em.execute<{ id: string; xmin: string }[]>(
      'select "submission_id" as "id", xmin::text as "xmin" from "submission_search_pending" where "form_id" = ?',
      [form.id],
    );
    expect(new Map(queued.map((row) => [row.id, row.xmin]))).toEqual(transactions);
    const files = await em.find(StoredFileSchema, { submission: { form: form.id } });
    expect(files).toHaveLength(20);
    for (const [position, outcome] of written.entries()) {
      const answer = outcome.outcome === 'stored' ? outcome.answer : undefined;
      const file = files.find((row) => row.id === answer!.files[0]!.id)!;
      expect(file.storageKey).toBe(given[position]!.files[0]!.storageKey);
    }
  });

  it('with gatherTurn (the gateway on PGlite), writes the submissions of one event-loop turn in one commit', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0, gatherTurn: true });
    const form = await makeForm(services, site);
    const given = Array.from({ length: 20 }, () => record(site, form));
    const written = await Promise.all(given.map((submission) => store.write(submission)));

    expect(written.map(storedId)).toEqual(given.map((submission) => submission.id));
    expect(store.groupCounts).toEqual({ groups: 1, rows: 20, largestGroup: 20 });
    const transactions = await transactionsOf(
      services,
      given.map((submission) => submission.id),
    );
    expect(transactions.size).toBe(20);
    expect(new Set(transactions.values()).size).toBe(1);
  });

  it('answers a row whose Idempotency-Key is taken with the first submission; its neighbours are stored', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const form = await makeForm(services, site);
    const first = await store.write(record(site, form, { idempotencyKey: 'taken' }));
    // The first write goes alone; the rest wait for it and are written as one group.
    const lead = record(site, form);
    const group = [
      record(site, form),
      record(site, form, { idempotencyKey: 'taken' }),
      record(site, form, { idempotencyKey: 'twice' }),
      record(site, form, { idempotencyKey: 'twice' }),
      record(site, form),
    ];
    const [, ...written] = await Promise.all([lead, ...group].map((submission) => store.write(submission)));

    expect(written[1]).toEqual({ outcome: 'replay', answer: first.outcome === 'stored' ? first.answer : undefined });
    // The same new key twice in one group: the first row holds it, the second replays it.
    expect(storedId(written[2]!)).toBe(group[2]!.id);
    expect(written[3]).toEqual({ outcome: 'replay', answer: (written[2] as { answer: unknown }).answer });
    expect([storedId(written[0]!), storedId(written[4]!)]).toEqual([group[0]!.id, group[4]!.id]);
    const transactions = await transactionsOf(
      services,
      group.map((submission) => submission.id),
    );
    expect([...transactions.keys()].sort()).toEqual([group[0]!.id, group[2]!.id, group[4]!.id].sort());
    expect(new Set(transactions.values()).size).toBe(1);
    expect(await services.db.em.fork().count(SubmissionSchema, { form: form.id })).toBe(5);
  });

  it('refuses only the rows of a form disabled, or a site token rotated, meanwhile', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const open = await makeForm(services, site);
    // The request's cached form still says enabled; the database says otherwise.
    const disabled = await makeForm(services, site);
    await services.db.em.fork().nativeUpdate(FormSchema, { id: disabled.id }, { enabled: false });
    const rotated = { ...site, controlCode: 'x'.repeat(site.controlCode.length) } as Site;
    const lead = record(site, open);
    const group = [
      record(site, open),
      record(site, disabled),
      record(rotated, open),
      record(site, open),
      record(site, disabled),
    ];
    const [, ...written] = await Promise.all([lead, ...group].map((submission) => store.write(submission)));

    const answers = written.map((outcome) =>
      outcome.outcome === 'refused' ? outcome.refusal.code : outcome.outcome === 'stored' ? outcome.answer.id : '',
    );
    expect(answers).toEqual([group[0]!.id, 'form_forbidden', 'token_invalid', group[3]!.id, 'form_forbidden']);
    const transactions = await transactionsOf(
      services,
      group.map((submission) => submission.id),
    );
    expect([...transactions.keys()].sort()).toEqual([group[0]!.id, group[3]!.id].sort());
    expect(new Set(transactions.values()).size).toBe(1);
    expect(await services.db.em.fork().count(StoredFileSchema, { submission: { form: disabled.id } })).toBe(0);
  });

  it('fails only the row the database rejects; its neighbours are stored', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const form = await makeForm(services, site);
    const lead = record(site, form);
    // jsonb has no NUL character: the database rejects this row, and with it the group's statement.
    const group = [record(site, form), record(site, form, { data: { name: 'A\u0000da' } }), record(site, form)];
    const settled = await Promise.allSettled([lead, ...group].map((submission) => store.write(submission)));

    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(isOutage((settled[2] as PromiseRejectedResult).reason)).toBe(false);
    expect(await services.db.em.fork().count(SubmissionSchema, { form: form.id })).toBe(3);
  });

  it('writes the deliveries of a group in its commit: one per webhook and one for the e-mails, none for spam', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const form = await makeForm(services, site);
    await services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { notifyEmails: ['ops@example.test'] });
    const mailing = await services.db.em.fork().findOneOrFail(FormSchema, form.id);
    const { webhook } = await makeWebhook(services, mailing, { url: 'https://hooks.example.test/' });
    const webhookIds = [webhook.id];
    const lead = record(site, mailing, { webhookIds });
    const group = [
      record(site, mailing, { webhookIds }),
      record(site, mailing, { webhookIds, spamReason: 'honeypot' }),
      record(site, mailing, { webhookIds, files: [] }),
    ];
    const [, ...written] = await Promise.all([lead, ...group].map((submission) => store.write(submission)));

    expect(written.map(storedId)).toEqual(group.map((submission) => submission.id));
    const transactions = await transactionsOf(
      services,
      group.map((submission) => submission.id),
    );
    expect(new Set(transactions.values()).size).toBe(1);
    const em = services.db.em.fork();
    for (const [position, submission] of group.entries()) {
      const deliveries = await em.find(DeliverySchema, { submission: submission.id }, { orderBy: { channel: 'asc' } });
      const expected =
        position === 1
          ? []
          : [
              { channel: 'email', recipients: ['ops@example.test'], webhook: null, status: 'pending' },
              { channel: 'webhook', recipients: null, webhook: { id: webhook.id }, status: 'pending' },
            ];
      expect(
        deliveries.map((delivery) => ({
          channel: delivery.channel,
          recipients: delivery.recipients ?? null,
          webhook: delivery.webhook ? { id: delivery.webhook.id } : null,
          status: delivery.status,
        })),
      ).toEqual(expected);
      for (const delivery of deliveries) {
        expect(delivery).toMatchObject({ eventType: 'submission.created', attemptCount: 0, form: { id: form.id } });
      }
    }
  });

  it('writes the rows of a webhook deleted meanwhile, or of a refused form, alone; the group is stored', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
    const form = await makeForm(services, site);
    const { webhook } = await makeWebhook(services, form, { url: 'https://hooks.example.test/' });
    const disabled = await makeForm(services, site);
    const { webhook: disabledHook } = await makeWebhook(services, disabled, { url: 'https://hooks.example.test/' });
    await services.db.em.fork().nativeUpdate(FormSchema, { id: disabled.id }, { enabled: false });
    const lead = record(site, form, { webhookIds: [webhook.id] });
    const group = [
      record(site, form, { webhookIds: [webhook.id] }),
      // The cache still lists a webhook deleted a moment ago: its delivery row breaks the group's statement.
      record(site, form, { webhookIds: [webhook.id, randomUUID()] }),
      record(site, disabled, { webhookIds: [disabledHook.id] }),
      record(site, form, { webhookIds: [webhook.id], idempotencyKey: 'once' }),
      record(site, form, { webhookIds: [webhook.id], idempotencyKey: 'once' }),
    ];
    const [, ...written] = await Promise.all([lead, ...group].map((submission) => store.write(submission)));

    const outcomes = written.map((outcome) => (outcome.outcome === 'refused' ? outcome.refusal.code : outcome.outcome));
    expect(outcomes.slice(0, 3)).toEqual(['stored', 'stored', 'form_forbidden']);
    // The two rows with one key are written alone once the group's statement broke: whichever
    // comes first is stored, the other answered with it.
    expect(outcomes.slice(3).sort()).toEqual(['replay', 'stored']);
    const storedWithKey = outcomes[3] === 'stored' ? 3 : 4;
    const em = services.db.em.fork();
    for (const position of [0, 1, storedWithKey]) {
      const deliveries = await em.find(DeliverySchema, { submission: group[position]!.id });
      expect(deliveries.map((delivery) => delivery.webhook?.id)).toEqual([webhook.id]);
    }
    expect(await em.count(SubmissionSchema, { form: disabled.id })).toBe(0);
    expect(await em.count(DeliverySchema, { form: form.id })).toBe(4);
  });

  it('writes a lone request at once, whatever the window', async () => {
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 5_000 });
    const form = await makeForm(services, site);
    const started = performance.now();
    for (let request = 0; request < 3; request++) {
      expect((await store.write(record(site, form))).outcome).toBe('stored');
    }
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(store.groupCounts).toMatchObject({ groups: 3, largestGroup: 1 });
  });
});

describeOnPostgres('group commit through a database outage', (serverUrl) => {
  it('fails every write of a group with the outage, and stores none of them', async () => {
    const outage = await createOutageDatabase(serverUrl);
    try {
      const { services } = outage;
      const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
      const { site } = await makeSite(services);
      const form = await makeForm(services, site);
      expect((await store.write(record(site, form))).outcome).toBe('stored');

      // The lead's write waits on a lock while the group forms behind it; then the database goes
      // away: new connections are refused and every other connection of the service is ended. The
      // lock is held until the writes are answered, so none of them can slip through.
      const given = Array.from({ length: 6 }, () => record(site, form));
      let results: PromiseSettledResult<WriteOutcome>[] = [];
      await services.db.em.fork().transactional(async (tx) => {
        await tx.execute('lock table "submissions" in access exclusive mode');
        const settled = Promise.allSettled(given.map((submission) => store.write(submission)));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(store.groupCounts.groups).toBe(2);
        await outage.refuseConnections();
        await tx.execute(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`,
        );
        results = await settled;
      });

      expect(results.map((result) => result.status)).toEqual(given.map(() => 'rejected'));
      for (const result of results) {
        expect(isOutage((result as PromiseRejectedResult).reason)).toBe(true);
      }
      expect(store.groupCounts).toEqual({ groups: 3, rows: 7, largestGroup: 5 });
      await outage.restore();
      expect(await services.db.em.fork().count(SubmissionSchema, { form: form.id })).toBe(1);
    } finally {
      await outage.restore().catch(() => undefined);
      await outage.close();
    }
  });
});
