// The delivery worker against real receivers on loopback: a webhook receiver that checks the
// signature with the standardwebhooks package, fails, hangs and redirects on demand, and a real
// SMTP server. Retries run on a shortened schedule; leases on short times.
import { createDownloadLinks } from '@intake/shared/download-links';
import { jest } from '@jest/globals';
import {
  enqueueInvitationEmail,
  enqueueSubmissionDeliveries,
  generateInvitationToken,
  hashInvitationToken,
  INVITATION_TTL_MS,
  invitationLink,
  invitationLinkBox,
} from '@intake/shared/delivery';
import {
  AdminUserSchema,
  DeliveryAttemptSchema,
  DeliverySchema,
  FormSchema,
  StoredFileSchema,
  SubmissionNoteSchema,
  SubmissionReadSchema,
  SubmissionSchema,
  WebhookSchema,
  type Delivery,
  type DeliveryAttempt,
  type Form,
} from '@intake/shared/entities';
import { toJsonSchema, type DeclaredField } from '@intake/shared/form-shape';
import {
  answer,
  createTestServices,
  hang,
  makeForm,
  makeSite,
  makeWebhook,
  redirectTo,
  startSmtpInbox,
  startWebhookReceiver,
  testDriverName,
  type SmtpInbox,
  type WebhookReceiver,
} from '@intake/shared/test';
import { claimDueDeliveries } from './delivery/claim.js';
import { recordAttempt } from './delivery/record-attempt.js';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.js';

jest.setTimeout(60_000);

type Services = Awaited<ReturnType<typeof createTestServices>>;

let services: Services;
let receiver: WebhookReceiver;
let inbox: SmtpInbox;
const workers: DeliveryWorker[] = [];

// Short waits so that a test can walk a whole retry schedule.
const SCHEDULE = [30, 30, 30];

function worker(options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const made = createDeliveryWorker(services, {
    retryScheduleMs: SCHEDULE,
    random: () => 0.5,
    publicAdminOrigin: () => 'https://admin.example.test',
    ...options,
  });
  workers.push(made);
  return made;
}

async function submit(form: Form, data: Record<string, unknown> = { name: 'Ada' }): Promise<string> {
  const em = services.db.em.fork();
  const submission = em.create(SubmissionSchema, {
    form: em.getReference(FormSchema, form.id),
    data,
    idempotencyKey: null,
  });
  em.create(StoredFileSchema, {
    submission,
    position: 0,
    field: 'cv',
    name: 'cv.pdf',
    mimeType: 'application/pdf',
    size: 1234,
    sha256: 'ab'.repeat(32),
    storageKey: `key-${Math.random().toString(36).slice(2)}`,
  });
  await enqueueSubmissionDeliveries(em, await em.findOneOrFail(FormSchema, { id: form.id }), submission);
  await em.flush();
  return submission.id;
}

async function deliveriesOf(submissionId: string): Promise<Delivery[]> {
  return services.db.em.fork().find(DeliverySchema, { submission: submissionId }, { orderBy: { channel: 'asc' } });
}

async function attemptsOf(deliveryId: string): Promise<DeliveryAttempt[]> {
  return services.db.em.fork().find(DeliveryAttemptSchema, { delivery: deliveryId }, { orderBy: { number: 'asc' } });
}

/** The header section of a raw message. */
const headersOf = (raw: string): string => raw.slice(0, raw.indexOf('\r\n\r\n'));

/** Runs the worker until nothing is left to do now or later (bounded). */
async function drain(run: DeliveryWorker, submissionId: string): Promise<Delivery[]> {
  for (let round = 0; round < 100; round += 1) {
    await run.runOnce();
    const deliveries = await deliveriesOf(submissionId);
    if (deliveries.every((delivery) => delivery.status !== 'pending')) {
      return deliveries;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('deliveries did not settle');
}

async function freshForm(
  notifyEmails: string[] | null = null,
  overrides: { siteName?: string; name?: string; fields?: DeclaredField[] } = {},
): Promise<Form> {
  const { site } = await makeSite(services, overrides.siteName === undefined ? {} : { name: overrides.siteName });
  const form = await makeForm(services, site, {
    ...(overrides.name === undefined ? {} : { name: overrides.name }),
    ...(overrides.fields === undefined ? {} : { fieldsSchema: toJsonSchema(overrides.fields) }),
  });
  if (notifyEmails) {
    const em = services.db.em.fork();
    await em.nativeUpdate(FormSchema, { id: form.id }, { notifyEmails });
  }
  return form;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  inbox = await startSmtpInbox();
  services = await createTestServices({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_MS: '800',
    DELIVERY_LEASE_MS: '3000',
    SMTP_URL: inbox.url,
    SMTP_FROM: 'Intake <intake@example.test>',
  });
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((made) => made.close()));
});

afterAll(async () => {
  await receiver?.close();
  await inbox?.close();
  await services?.close();
});

describe(`delivery worker on ${testDriverName()}`, () => {
  it('delivers a signed submission.created event that an independent implementation verifies', async () => {
    const form = await freshForm();
    const { webhook, secret } = await makeWebhook(services, form, { url: `${receiver.url}/hook?x=1` });
    receiver.secret = secret;
    const before = receiver.received.length;
    const submissionId = await submit(form, { name: 'Ada', note: 'Tom &amp; Jerry' });

    const [delivery] = await drain(worker(), submissionId);
    expect(delivery).toEqual(expect.objectContaining({ status: 'succeeded', attemptCount: 1 }));
    const request = receiver.received[before]!;
    expect(request.verified).toBe(true);
    expect(request.path).toBe('/hook?x=1');
    expect(request.headers['webhook-id']).toBe(delivery!.id);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({
      type: 'submission.created',
      timestamp: expect.any(String),
      data: {
        submissionId,
        formId: form.id,
        siteId: form.site.id,
        createdAt: expect.any(String),
        data: { name: 'Ada', note: 'Tom &amp; Jerry' },
        sanitizedFields: [],
        files: [
          {
            id: expect.any(String),
            field: 'cv',
            name: 'cv.pdf',
            mimeType: 'application/pdf',
            size: 1234,
            sha256: 'ab'.repeat(32),
            downloadUrl: expect.stringMatching(
              /^https:\/\/admin\.example\.test\/files\/[0-9a-f-]{36}\?expires=\d+&sig=/,
            ),
            downloadUrlExpiresAt: expect.any(String),
          },
        ],
      },
    });
    // A wrong secret does not verify: the receiver's check can fail.
    receiver.secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const second = await submit(form);
    await drain(worker(), second);
    expect(receiver.received.at(-1)!.verified).toBe(false);

    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).toEqual(
      expect.objectContaining({ number: 1, succeeded: true, statusCode: 200, error: null, response: 'ok' }),
    );
    const row = await services.db.em.fork().findOneOrFail(WebhookSchema, { id: webhook.id });
    expect(row.lastSuccessAt).toBeInstanceOf(Date);
    expect(row.failingSince).toBeNull();
  });

  it('retries a failing receiver with backoff until it answers 2xx, keeping one webhook-id', async () => {
    const form = await freshForm();
    const { secret } = await makeWebhook(services, form, { url: receiver.url });
    receiver.secret = secret;
    receiver.plan(answer(500, 'down'), answer(503, 'x'.repeat(5000)));
    const before = receiver.received.length;
    const submissionId = await submit(form);

    const [delivery] = await drain(worker(), submissionId);
    expect(delivery!.status).toBe('succeeded');
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((attempt) => [attempt.number, attempt.statusCode, attempt.succeeded])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(attempts[0]!.error).toBe('HTTP 500');
    expect(attempts[0]!.response).toBe('down');
    // The receiver's answer is kept truncated to 1 KiB.
    expect(attempts[1]!.response).toHaveLength(1024);
    expect(attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);
    const ids = receiver.received.slice(before).map((request) => request.headers['webhook-id']);
    expect(ids).toEqual([delivery!.id, delivery!.id, delivery!.id]);
    expect(receiver.received.slice(before).every((request) => request.verified)).toBe(true);
  });

  it('waits the scheduled time between attempts', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    receiver.plan(answer(500));
    const submissionId = await submit(form);
    const run = worker({ retryScheduleMs: [60 * 60 * 1000] });
    await run.runOnce();
    const [delivery] = await deliveriesOf(submissionId);
    expect(delivery!.status).toBe('pending');
    expect(delivery!.retryStep).toBe(1);
    const waitMs = delivery!.nextAttemptAt.getTime() - delivery!.lastAttemptAt!.getTime();
    expect(waitMs).toBeGreaterThan(59 * 60 * 1000);
    expect(waitMs).toBeLessThan(61 * 60 * 1000);
    // Not due: another run does not touch it.
    expect(await run.runOnce()).toBe(0);
  });

  it('fails a delivery for good once the schedule is used up', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    receiver.plan(answer(500), answer(500), answer(500), answer(500));
    const submissionId = await submit(form);
    const [delivery] = await drain(worker(), submissionId);
    expect(delivery!.status).toBe('failed');
    expect(delivery!.completedAt).toBeInstanceOf(Date);
    expect((await attemptsOf(delivery!.id)).map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 500]);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    receiver.plan(hang());
    const submissionId = await submit(form);
    const run = worker({ retryScheduleMs: [60_000] });
    const started = Date.now();
    await run.runOnce();
    const elapsed = Date.now() - started;
    const [delivery] = await deliveriesOf(submissionId);
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).toEqual(expect.objectContaining({ succeeded: false, statusCode: null }));
    expect(attempt!.error).toBe('timed out after 800 ms');
    expect(delivery!.status).toBe('pending');
    expect(elapsed).toBeLessThan(5000);
  });

  it('does not follow a redirect: it is a failure, and the target is never called', async () => {
    const target = await startWebhookReceiver();
    try {
      const form = await freshForm();
      await makeWebhook(services, form, { url: receiver.url });
      receiver.plan(redirectTo(`${target.url}/elsewhere`));
      const submissionId = await submit(form);
      await worker({ retryScheduleMs: [60_000] }).runOnce();
      const [delivery] = await deliveriesOf(submissionId);
      const [attempt] = await attemptsOf(delivery!.id);
      expect(attempt).toEqual(
        expect.objectContaining({ succeeded: false, statusCode: 302, error: 'redirect not followed' }),
      );
      expect(delivery!.status).toBe('pending');
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('disables a webhook that keeps failing for days, and fails what is left of it', async () => {
    const form = await freshForm();
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 60 * 60 * 1000);
    const { webhook } = await makeWebhook(services, form, { url: receiver.url, failingSince: sixDaysAgo });
    receiver.plan(answer(500), answer(500));
    const first = await submit(form);
    const second = await submit(form);
    const run = worker({ retryScheduleMs: [60_000], batchSize: 1 });
    await run.runOnce();
    const row = await services.db.em.fork().findOneOrFail(WebhookSchema, { id: webhook.id });
    expect(row.enabled).toBe(false);
    expect(row.disabledAt).toBeInstanceOf(Date);
    expect(row.disabledReason).toMatch(/failed for more than 120 hours/);
    // The other pending delivery ends without a request; a new submission enqueues nothing.
    const sent = receiver.received.length;
    await run.runOnce();
    const deliveries = [...(await deliveriesOf(first)), ...(await deliveriesOf(second))];
    const ended = deliveries.find((delivery) => delivery.status === 'failed');
    expect((await attemptsOf(ended!.id)).at(-1)!.error).toBe('webhook is disabled');
    expect(receiver.received.length).toBe(sent);
    const third = await submit(form);
    expect(await deliveriesOf(third)).toHaveLength(0);
    receiver.plan();
  });

  it('a success clears failingSince; a recent failure does not disable', async () => {
    const form = await freshForm();
    const { webhook } = await makeWebhook(services, form, { url: receiver.url });
    receiver.plan(answer(500));
    const submissionId = await submit(form);
    const run = worker();
    await run.runOnce();
    let row = await services.db.em.fork().findOneOrFail(WebhookSchema, { id: webhook.id });
    expect(row.enabled).toBe(true);
    expect(row.failingSince).toBeInstanceOf(Date);
    await drain(run, submissionId);
    row = await services.db.em.fork().findOneOrFail(WebhookSchema, { id: webhook.id });
    expect(row.failingSince).toBeNull();
  });

  it('a fault inside the worker is logged as a failed attempt and retried on the schedule, not looped', async () => {
    const form = await freshForm();
    const { webhook } = await makeWebhook(services, form, { url: receiver.url });
    // A secret sealed under another key (as after a TOKEN_ENCRYPTION_KEY change) cannot be opened.
    await services.db.em.fork().nativeUpdate(WebhookSchema, { id: webhook.id }, { sealedSecret: 'v1.AAAA.AAAA.AAAA' });
    const sent = receiver.received.length;
    const submissionId = await submit(form);
    const [delivery] = await drain(worker(), submissionId);
    expect(delivery!.status).toBe('failed');
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((attempt) => attempt.error)).toEqual(Array(SCHEDULE.length + 1).fill('internal error'));
    expect(receiver.received.length).toBe(sent);
  });

  it('claims with a lease: a claimed row is not claimed twice until the lease ends, and a lost lease changes nothing', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    const submissionId = await submit(form);
    const [delivery] = await deliveriesOf(submissionId);
    const first = await claimDueDeliveries(services.db.em.fork(), 100, 300);
    expect(first.deliveryIds).toContain(delivery!.id);
    const second = await claimDueDeliveries(services.db.em.fork(), 100, 300);
    expect(second.deliveryIds).not.toContain(delivery!.id);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const third = await claimDueDeliveries(services.db.em.fork(), 100, 60_000);
    expect(third.deliveryIds).toContain(delivery!.id);
    // The first claimant comes back late: its outcome is logged but the row stays with the third.
    const late = await recordAttempt(services.db.em.fork(), {
      deliveryId: delivery!.id,
      lockToken: first.lockToken,
      webhookId: null,
      attemptNumber: 1,
      startedAt: new Date(),
      outcome: { succeeded: true, statusCode: 200, error: null, response: 'late', durationMs: 1 },
      retryDelayMs: null,
      disableAfterMs: 1000,
    });
    expect(late.updated).toBe(false);
    const [after] = await deliveriesOf(submissionId);
    expect(after).toEqual(expect.objectContaining({ status: 'pending', lockToken: third.lockToken, attemptCount: 2 }));
    // Release it for the other tests.
    await services.db.em.fork().nativeUpdate(DeliverySchema, { id: delivery!.id }, { status: 'failed' });
  });

  it('an attempt whose delivery was deleted meanwhile (erasure, a deleted submission) records nothing and throws nothing', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    const submissionId = await submit(form);
    const [delivery] = await deliveriesOf(submissionId);
    const claim = await claimDueDeliveries(services.db.em.fork(), 100, 300);
    expect(claim.deliveryIds).toContain(delivery!.id);
    await services.db.em.fork().nativeDelete(DeliverySchema, { id: delivery!.id });
    const result = await recordAttempt(services.db.em.fork(), {
      deliveryId: delivery!.id,
      lockToken: claim.lockToken,
      webhookId: null,
      attemptNumber: 1,
      startedAt: new Date(),
      outcome: { succeeded: true, statusCode: 200, error: null, response: 'after the erasure', durationMs: 1 },
      retryDelayMs: null,
      disableAfterMs: 1000,
    });
    expect(result).toEqual({ updated: false, webhookDisabled: false, deleted: true });
    expect(await attemptsOf(delivery!.id)).toEqual([]);
  });

  it('two workers running at once send each event exactly once', async () => {
    const form = await freshForm();
    const { secret } = await makeWebhook(services, form, { url: receiver.url });
    receiver.secret = secret;
    const before = receiver.received.length;
    const submissions: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      submissions.push(await submit(form, { index }));
    }
    const a = worker({ batchSize: 3 });
    const b = worker({ batchSize: 3 });
    for (let round = 0; round < 10; round += 1) {
      await Promise.all([a.runOnce(), b.runOnce()]);
    }
    const ids = receiver.received.slice(before).map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    for (const submissionId of submissions) {
      const [delivery] = await deliveriesOf(submissionId);
      expect(delivery).toEqual(expect.objectContaining({ status: 'succeeded', attemptCount: 1 }));
    }
  });

  it('sends no inbox state: a note, a status, an assignee or read marks reach neither webhooks nor e-mails', async () => {
    const form = await freshForm(['ops@example.test']);
    const { secret } = await makeWebhook(services, form, { url: `${receiver.url}/hook` });
    receiver.secret = secret;
    const received = receiver.received.length;
    const mailed = inbox.messages.length;
    const submissionId = await submit(form, { name: 'Ada' });
    // The team works on it before the worker sends it.
    const em = services.db.em.fork();
    const member = em.create(AdminUserSchema, {
      email: 'assignee-5f3e@example.test',
      role: 'member',
      passwordHash: 'not a password hash',
    });
    const submission = em.getReference(SubmissionSchema, submissionId);
    em.create(SubmissionNoteSchema, { submission, author: member, text: 'Internal remark 5f3e' });
    em.create(SubmissionReadSchema, { submission, member, readAt: new Date() });
    await em.flush();
    await em.nativeUpdate(SubmissionSchema, { id: submissionId }, { status: 'open', assignee: member });

    const deliveries = await drain(worker(), submissionId);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded']);
    const event = receiver.received[received]!.json as { data: Record<string, unknown> };
    expect(Object.keys(event.data).sort()).toEqual(
      ['createdAt', 'data', 'files', 'formId', 'sanitizedFields', 'siteId', 'submissionId'].sort(),
    );
    await inbox.waitFor(mailed + 1);
    for (const sent of [JSON.stringify(event), inbox.messages[mailed]!.raw]) {
      expect(sent).not.toContain('5f3e');
      expect(sent).not.toContain(member.id);
      expect(sent).not.toMatch(/"status"|"open"/);
    }
  });

  it('e-mails the form’s addresses a plain-text list of the fields and attachment names', async () => {
    const form = await freshForm(['ops@example.test', 'sales@example.test']);
    const before = inbox.messages.length;
    const submissionId = await submit(form, {
      name: 'Ada <b>Lovelace</b>',
      note: 'Line one\nLine two',
      html: '&lt;script&gt;alert(1)&lt;/script&gt;',
      tags: ['a', 'b'],
    });
    const [delivery] = await drain(worker(), submissionId);
    expect(delivery).toEqual(expect.objectContaining({ channel: 'email', status: 'succeeded' }));
    await inbox.waitFor(before + 1);
    const mail = inbox.messages[before]!;
    expect(mail.to).toEqual(['ops@example.test', 'sales@example.test']);
    expect(mail.from).toBe('intake@example.test');
    expect(mail.subject).toBe('New submission to Contact (Test site)');
    expect(mail.raw).not.toMatch(/text\/html/i);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.text).toContain(`Submission: ${submissionId}`);
    expect(mail.text).toContain('name: Ada <b>Lovelace</b>');
    expect(mail.text).toContain('note: Line one\n    Line two');
    expect(mail.text).toContain('html: <script>alert(1)</script>');
    expect(mail.text).toContain('tags: ["a","b"]');
    expect(mail.text).toContain('- cv.pdf (application/pdf, 1234 bytes, field cv)');
    expect(mail.raw).not.toMatch(/Content-Disposition: attachment/i);
    // The submission's page in the console, where the files download: at the top and under the files.
    const page = `https://admin.example.test/sites/${form.site.id}/forms/${form.id}/submissions/${submissionId}`;
    expect(mail.text).toContain(`Open it in the console: ${page}\n`);
    expect(mail.text).toContain(
      `The files are not attached to this e-mail. Download them from the submission's page in the console:\n${page}\n`,
    );
    expect(mail.text).not.toMatch(/admin API/i);
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt!.response).toMatch(/^250/);
  });

  it('takes the subject and the reply-to address from _subject and _replyto, never a header broken open', async () => {
    const form = await freshForm(['ops@example.test']);
    const before = inbox.messages.length;
    const first = await submit(form, {
      _subject: 'Order &amp; delivery\nBcc: x@evil.example',
      _replyto: 'ada@example.org',
    });
    await drain(worker(), first);
    const second = await submit(form, { _subject: '', _replyto: 'ada@example.org\nBcc: x@evil.example' });
    await drain(worker(), second);
    await inbox.waitFor(before + 2);
    const [withBoth, withNeither] = inbox.messages.slice(before);
    expect(withBoth!.subject).toBe('New submission to Contact (Test site): Order & delivery Bcc: x@evil.example');
    expect(withBoth!.raw).toMatch(/^Reply-To: ada@example\.org\r?$/m);
    expect(withNeither!.subject).toBe('New submission to Contact (Test site)');
    expect(withNeither!.raw).not.toMatch(/^Reply-To:/m);
    expect(withNeither!.raw).not.toMatch(/^Bcc:/m);
  });

  it('names the form and the site in a subject of one bounded line, whatever the names hold', async () => {
    const form = await freshForm(['ops@example.test'], {
      name: 'Front\r\ndesk\u202E\u200B intake\nBcc: x@evil.example',
      siteName: `Café ${'ß'.repeat(100)}`,
    });
    const before = inbox.messages.length;
    await drain(worker(), await submit(form, { _subject: 'x'.repeat(300) }));
    await inbox.waitFor(before + 1);
    const mail = inbox.messages[before]!;
    // The site's name is cut at 60 characters, then the whole subject at 200, each ending with `…`.
    const line = `New submission to Front desk intake Bcc: x@evil.example (Café ${'ß'.repeat(54)}…)`;
    expect(mail.subject).toBe(`${line}: ${'x'.repeat(200 - line.length - 3)}…`);
    expect([...mail.subject]).toHaveLength(200);
    expect(headersOf(mail.raw)).not.toMatch(/^Bcc:/im);
    expect(mail.text).toContain('for the form "Front desk intake Bcc: x@evil.example" of the site');
  });

  describe('Reply-To, from the submitter’s address', () => {
    const field = (name: string, type: DeclaredField['type']): DeclaredField => ({
      name,
      type,
      required: false,
      maxLength: null,
      choices: null,
    });
    const replyToOf = (raw: string) => /^Reply-To: (.*)\r?$/m.exec(raw)?.[1]?.trim();

    async function replyTos(form: Form, submissions: Record<string, unknown>[]): Promise<(string | undefined)[]> {
      const before = inbox.messages.length;
      for (const data of submissions) {
        await drain(worker(), await submit(form, data));
      }
      await inbox.waitFor(before + submissions.length);
      const mails = inbox.messages.slice(before);
      expect(mails.every((mail) => !/^(Bcc|Cc):/im.test(headersOf(mail.raw)))).toBe(true);
      return mails.map((mail) => replyToOf(mail.raw));
    }

    it('is the form’s first declared EMAIL field when it holds one plain address, and nothing else', async () => {
      const form = await freshForm(['ops@example.test'], {
        fields: [field('email', 'text'), field('contact', 'email'), field('manager', 'email')],
      });
      expect(
        await replyTos(form, [
          { email: 'not@used.example', contact: 'ada@example.org', manager: 'boss@example.org' },
          { contact: 'o&#39;brien+desk@mail.example.org', manager: 'boss@example.org' },
          { contact: 'ada@example.org\r\nBcc: x@evil.example' },
          { contact: 'Ada <ada@example.org>' },
          { contact: '"Ada" ada@example.org' },
          { contact: 'ada@example.org, eve@evil.example' },
          { contact: 'ada@example.org\nCc: eve@evil.example' },
          { contact: ['ada@example.org'] },
          { contact: 'ada@localhost' },
          // No address in the field: the manager's is not the submitter's, nor is the TEXT `email`.
          { email: 'not@used.example', manager: 'boss@example.org' },
        ]),
      ).toEqual([
        'ada@example.org',
        "o'brien+desk@mail.example.org",
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('is a field named `email` on a form that declares no EMAIL field, when it holds one plain address', async () => {
      const undeclared = await freshForm(['ops@example.test']);
      const declaredAsText = await freshForm(['ops@example.test'], { fields: [field('email', 'text')] });
      expect(
        await replyTos(undeclared, [
          { email: 'ada@example.org' },
          { email: 'see me at the desk' },
          { email: 'ada@example.org\r\nBcc: x@evil.example' },
          { Email: 'ada@example.org' },
        ]),
      ).toEqual(['ada@example.org', undefined, undefined, undefined]);
      expect(await replyTos(declaredAsText, [{ email: 'grace@example.org' }])).toEqual(['grace@example.org']);
    });

    it('is `_replyto` first, when it holds one plain address', async () => {
      const form = await freshForm(['ops@example.test'], { fields: [field('contact', 'email')] });
      expect(
        await replyTos(form, [
          { _replyto: 'page@example.org', contact: 'ada@example.org' },
          { _replyto: 'nobody', contact: 'ada@example.org' },
        ]),
      ).toEqual(['page@example.org', 'ada@example.org']);
    });
  });

  it('retries an e-mail the server refuses for now', async () => {
    const form = await freshForm(['ops@example.test']);
    const before = inbox.messages.length;
    inbox.refuseNext(1);
    const submissionId = await submit(form);
    const [delivery] = await drain(worker(), submissionId);
    expect(delivery!.status).toBe('succeeded');
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((attempt) => [attempt.succeeded, attempt.error])).toEqual([
      [false, 'SMTP 451'],
      [true, null],
    ]);
    expect(inbox.messages.length).toBe(before + 1);
  });

  it('lists each file with a download link that expires, when the form asks for it', async () => {
    const form = await freshForm(['ops@example.test']);
    await services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { notifyFileLinks: true });
    const before = inbox.messages.length;
    const submissionId = await submit(form, { name: 'Ada' });
    await drain(worker(), submissionId);
    await inbox.waitFor(before + 1);
    const text = inbox.messages[before]!.text;
    const [file] = await services.db.em.fork().find(StoredFileSchema, { submission: submissionId });
    const link = new RegExp(
      `- cv\\.pdf \\(application/pdf, 1234 bytes, field cv\\)\\n  (https://admin\\.example\\.test/files/${file!.id}\\?\\S+)\\n`,
    );
    const url = new URL(link.exec(text)?.[1] ?? 'https://missing.invalid/');
    // Signed as the admin API checks a webhook payload's links, and valid WEBHOOK_DOWNLOAD_URL_TTL_SECONDS.
    const links = createDownloadLinks({
      jwtSecret: services.config.jwtSecret,
      ttlSeconds: services.config.delivery.downloadUrlTtlSeconds,
      publicOrigin: () => 'https://admin.example.test',
    });
    expect(links.verify(file!.id, url.searchParams.get('expires'), url.searchParams.get('sig'))).toBe(true);
    const expires = Number(url.searchParams.get('expires')) * 1000 - Date.now();
    expect(expires).toBeGreaterThan((services.config.delivery.downloadUrlTtlSeconds - 60) * 1000);
    expect(text).toMatch(/Their links above work until \d{4}-\d\d-\d\dT/);
  });

  it('fails a notification e-mail at once without SMTP_URL: it does not sit pending through the schedule', async () => {
    const form = await freshForm(['ops@example.test']);
    const before = inbox.messages.length;
    const submissionId = await submit(form);
    const delivery = services.config.delivery;
    const withoutSmtp = createDeliveryWorker(
      { ...services, config: { ...services.config, delivery: { ...delivery, smtpUrl: undefined } } },
      { retryScheduleMs: SCHEDULE, random: () => 0.5 },
    );
    workers.push(withoutSmtp);
    await withoutSmtp.runOnce();
    const [email] = await deliveriesOf(submissionId);
    expect(email!.status).toBe('failed');
    const attempts = await attemptsOf(email!.id);
    expect(attempts.map((attempt) => [attempt.succeeded, attempt.error])).toEqual([[false, 'SMTP_URL is not set']]);
    expect(inbox.messages.length).toBe(before);
  });

  it('sends an invitation only while its link is the member’s current one, and wipes the sealed link either way', async () => {
    const em = services.db.em.fork();
    const box = invitationLinkBox(services.config.tokenEncryptionKey);
    const invite = async (email: string, current: boolean) => {
      const token = generateInvitationToken();
      const member = em.create(AdminUserSchema, {
        email,
        role: 'member',
        status: 'invited',
        passwordHash: 'not a password hash',
        // Not current: a resend gave the member another link after this e-mail was queued.
        invitationTokenHash: hashInvitationToken(current ? token : generateInvitationToken()),
        invitedAt: new Date(),
        invitationExpiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      });
      await em.flush();
      const sealedLink = box.seal(invitationLink('https://admin.example.test', token));
      const delivery = enqueueInvitationEmail(em, { memberId: member.id, email, sealedLink });
      await em.flush();
      return { id: delivery.id, token };
    };
    const before = inbox.messages.length;
    const current = await invite('current@example.test', true);
    const replaced = await invite('replaced@example.test', false);
    const run = worker();
    const rows = () =>
      services.db.em
        .fork()
        .find(DeliverySchema, { id: { $in: [current.id, replaced.id] } }, { orderBy: { recipients: 'asc' } });
    for (let round = 0; round < 50 && (await rows()).some((row) => row.status === 'pending'); round += 1) {
      await run.runOnce();
    }
    expect((await rows()).map((row) => [row.recipients, row.status, row.payload])).toEqual([
      [['current@example.test'], 'succeeded', null],
      [['replaced@example.test'], 'failed', null],
    ]);
    expect((await attemptsOf(replaced.id)).map((attempt) => attempt.error)).toEqual(['the invitation no longer holds']);
    const mails = inbox.messages.slice(before);
    expect(mails.map((mail) => mail.to)).toEqual([['current@example.test']]);
    expect(mails[0]!.text).toContain(`https://admin.example.test/invitation#${current.token}`);
  });

  it('runs as a loop until closed', async () => {
    const form = await freshForm();
    await makeWebhook(services, form, { url: receiver.url });
    const before = receiver.received.length;
    const run = worker();
    run.start();
    await submit(form);
    await receiver.waitFor(before + 1);
    await run.close();
  });
});
