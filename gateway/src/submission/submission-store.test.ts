// The submission store's contract, on the real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL): one submission in, one outcome out, whichever path and retry it takes inside.
// The HTTP tests (intake, spam protection, webhooks end to end) play the same cases through the
// gateway; these pin the outcomes a caller of `write` relies on.
import { randomUUID } from 'node:crypto';
import { DeliverySchema, FormSchema, SiteSchema, StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import type { Form, Site } from '@intake/shared/entities';
import { createTestServices, makeForm, makeSite, makeWebhook } from '@intake/shared/test';
import { RECORD_FILE, submissionRecord } from '../test/submission-record.js';
import { submissionStore, type SubmissionRecord, type SubmissionStore } from './submission-store.js';

let services: Awaited<ReturnType<typeof createTestServices>>;
let store: SubmissionStore;
let site: Site;

beforeAll(async () => {
  services = await createTestServices();
  store = submissionStore(services.db);
  ({ site } = await makeSite(services));
});

afterAll(async () => {
  await services.close();
});

const record = (form: Form, overrides: Partial<SubmissionRecord> = {}) => submissionRecord(site, form, overrides);

async function formWith(settings: { notifyEmails?: string[]; duplicateWindowSeconds?: number }): Promise<Form> {
  const form = await makeForm(services, site);
  const em = services.db.em.fork();
  await em.nativeUpdate(FormSchema, { id: form.id }, settings);
  return em.findOneOrFail(FormSchema, form.id);
}

async function rowsOf(submissionId: string) {
  const em = services.db.em.fork();
  return {
    submission: await em.findOne(SubmissionSchema, submissionId),
    files: await em.find(StoredFileSchema, { submission: submissionId }, { orderBy: { position: 'asc' } }),
    deliveries: await em.find(DeliverySchema, { submission: submissionId }),
  };
}

describe('submission store', () => {
  it('stores a submission and its files in one statement: the answer names the rows written', async () => {
    const form = await makeForm(services, site);
    const given = record(form, { sanitizedFields: ['name'] });
    const written = await store.write(given);
    expect(written.outcome).toBe('stored');
    const answer = written.outcome === 'stored' ? written.answer : undefined;
    // Written under the id, time and receipt the record was given (the receipt names them).
    expect(answer).toMatchObject({ id: given.id, createdAt: given.createdAt.toISOString(), receipt: given.receipt });
    const rows = await rowsOf(answer!.id);
    expect(rows.submission).toMatchObject({ data: { name: 'Ada' }, sanitizedFields: ['name'], spam: false });
    expect(rows.submission!.receipt).toBe(given.receipt);
    expect(rows.submission!.createdAt.toISOString()).toBe(answer!.createdAt);
    expect(answer!.files).toEqual([{ id: rows.files[0]!.id, ...RECORD_FILE }]);
    expect(rows.deliveries).toEqual([]);
    // Queued for the search index by the same statement; the worker writes its search row.
    const queued = await services.db.em
      .fork()
      .execute<{ id: string }[]>(
        'select "submission_id" as "id" from "submission_search_pending" where "form_id" = ?',
        [form.id],
      );
    expect(queued).toEqual([{ id: answer!.id }]);
  });

  it('stores a submission with its deliveries in one transaction; spam gets none', async () => {
    const form = await formWith({ notifyEmails: ['ops@example.test'] });
    const { webhook } = await makeWebhook(services, form, { url: 'https://hooks.example.test/' });
    const given = record(form, { webhookIds: [webhook.id] });
    const good = await store.write(given);
    const spam = await store.write(record(form, { webhookIds: [webhook.id], spamReason: 'honeypot' }));
    expect([good.outcome, spam.outcome]).toEqual(['stored', 'stored']);
    expect(good.outcome === 'stored' ? good.answer : undefined).toMatchObject({ id: given.id, receipt: given.receipt });
    const goodRows = await rowsOf(good.outcome === 'stored' ? good.answer.id : '');
    expect(goodRows.submission).toMatchObject({ receipt: given.receipt, createdAt: given.createdAt });
    expect(goodRows.deliveries.map((delivery) => delivery.channel).sort()).toEqual(['email', 'webhook']);
    expect(goodRows.files).toHaveLength(1);
    const spamRows = await rowsOf(spam.outcome === 'stored' ? spam.answer.id : '');
    expect(spamRows.submission).toMatchObject({ spam: true, spamReason: 'honeypot' });
    expect(spamRows.deliveries).toEqual([]);
  });

  it('reads the webhooks afresh when one the caller listed was deleted meanwhile', async () => {
    const form = await makeForm(services, site);
    const { webhook } = await makeWebhook(services, form, { url: 'https://hooks.example.test/' });
    const written = await store.write(record(form, { webhookIds: [webhook.id, randomUUID()] }));
    expect(written.outcome).toBe('stored');
    const rows = await rowsOf(written.outcome === 'stored' ? written.answer.id : '');
    expect(rows.deliveries.map((delivery) => delivery.webhook?.id)).toEqual([webhook.id]);
  });

  it('stores the same content once within the window, even when written at the same moment', async () => {
    const form = await formWith({ duplicateWindowSeconds: 60 });
    const duplicateFilter = { contentHash: 'c'.repeat(64), windowSeconds: 60 };
    const outcomes = await Promise.all([1, 2, 3].map(() => store.write(record(form, { duplicateFilter }))));
    expect(outcomes.map((written) => written.outcome).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
    expect(new Set(outcomes.map((written) => (written.outcome === 'refused' ? '' : written.answer.id))).size).toBe(1);
    expect(await store.findDuplicate(form, duplicateFilter)).toEqual(
      outcomes.find((written) => written.outcome === 'stored')!.answer,
    );
    expect(await store.findDuplicate(form, { ...duplicateFilter, contentHash: 'd'.repeat(64) })).toBeUndefined();
  });

  it('answers a repeated Idempotency-Key with the first submission, and frees a key past the replay window', async () => {
    const form = await makeForm(services, site);
    const first = await store.write(record(form, { idempotencyKey: 'key-1' }));
    const again = await store.write(record(form, { idempotencyKey: 'key-1', data: { name: 'Bob' } }));
    expect(first.outcome).toBe('stored');
    expect(again).toEqual({ outcome: 'replay', answer: first.outcome === 'stored' ? first.answer : undefined });

    const em = services.db.em.fork();
    const firstId = first.outcome === 'stored' ? first.answer.id : '';
    await em.nativeUpdate(SubmissionSchema, { id: firstId }, { createdAt: new Date(Date.now() - 25 * 3600_000) });
    const later = await store.write(record(form, { idempotencyKey: 'key-1' }));
    expect(later.outcome).toBe('stored');
    expect((await rowsOf(firstId)).submission!.idempotencyKey).toBeNull();
  });

  it('refuses a submission its form or site no longer accepts, on either path, writing nothing', async () => {
    const disabled = await makeForm(services, site, { enabled: false });
    const plain = await makeForm(services, site);
    const withMail = await formWith({ notifyEmails: ['ops@example.test'] });
    const rotated = { ...site, controlCode: 'x'.repeat(site.controlCode.length) } as Site;
    const cases = [
      [record(disabled), 'form_forbidden'],
      [
        record(disabled, { webhookIds: undefined, duplicateFilter: { contentHash: 'e'.repeat(64), windowSeconds: 9 } }),
        'form_forbidden',
      ],
      [record(withMail, { site: rotated }), 'token_invalid'],
      [record(plain, { site: rotated }), 'token_invalid'],
    ] as const;
    for (const [submission, code] of cases) {
      const written = await store.write(submission);
      expect(written.outcome === 'refused' ? written.refusal.code : written.outcome).toBe(code);
    }
    const em = services.db.em.fork();
    expect(await em.count(SubmissionSchema, { form: { $in: [disabled.id, plain.id, withMail.id] } })).toBe(0);
    expect(await em.count(SiteSchema, { id: site.id, controlCode: site.controlCode })).toBe(1);
  });
});
