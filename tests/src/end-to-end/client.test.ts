// @intake/client against a listening gateway (docs/client.md): JSON and files stored; a gateway that
// refuses connections and comes back, crossed with retries that store exactly one submission; every
// refusal a client can meet thrown as a typed IntakeProblem; and a webhook the delivery worker
// signed, verified with verifyWebhook. The database outage is in client-database-outage.test.ts.
import { createServer } from 'node:net';
import { jest } from '@jest/globals';
import { IntakeClient, IntakeNetworkError, IntakeProblem, verifyWebhook, type IntakeFile } from '@intake/client';
import { SubmissionSchema, StoredFileSchema, FormSchema, type Form } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import { createCaptchaSecretBox } from '@intake/shared/spam';
import {
  makeForm,
  makeSite,
  makeWebhook,
  startWebhookReceiver,
  testDriverName,
  type WebhookReceiver,
} from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { clamdStatus, describeClamd, eicarBytes, footprint, startTestGateway, withConfig } from '@intake/gateway/test';
import {
  docm,
  docxWithAttachedTemplate,
  EXECUTABLE_HEADS,
  nestedZipBomb,
  pdf,
  png,
  rawZip,
  zipOf,
} from '@intake/test-files';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';
import { startTcpProxy, type TcpProxy } from '../reliability/support/tcp-proxy.js';

jest.setTimeout(60_000);

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

let harness: Harness;
let site: Awaited<ReturnType<typeof makeSite>>;
let form: Form;

// Short waits: the tests cross retries without waiting seconds.
const FAST = { attempts: 8, baseDelayMs: 100, maxDelayMs: 2000 };

function clientFor(url: string, overrides: Partial<ConstructorParameters<typeof IntakeClient>[0]> = {}) {
  return new IntakeClient({
    url,
    apiKey: harness.services.config.apiKey,
    siteToken: site.token,
    retry: FAST,
    ...overrides,
  });
}

async function storedWithKey(key: string): Promise<number> {
  return harness.services.db.em.fork().count(SubmissionSchema, { idempotencyKey: key });
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  harness = await startTestGateway();
  site = await makeSite(harness.services);
  form = await makeForm(harness.services, site.site);
});

afterAll(async () => {
  await harness?.close();
});

describe(`@intake/client against a listening gateway on ${testDriverName()}`, () => {
  it('submits JSON with an Idempotency-Key it makes, and a repeat with that key stores nothing new', async () => {
    const client = clientFor(harness.gateway.url);
    const result = await client.submit(form.code, { name: 'Ada', tags: ['a', 'b'], age: 36 });
    expect(result.attempts).toBe(1);
    expect(result.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const row = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, { id: result.id });
    expect(row.data).toEqual({ name: 'Ada', tags: ['a', 'b'], age: 36 });
    expect(row.idempotencyKey).toBe(result.idempotencyKey);
    const again = await client.submit(form.code, { name: 'Ada' }, { idempotencyKey: result.idempotencyKey });
    expect(again.id).toBe(result.id);
    expect(await storedWithKey(result.idempotencyKey)).toBe(1);
  });

  it('submits fields and files as multipart, lists and nested objects read back as sent', async () => {
    const client = clientFor(harness.gateway.url);
    const files: IntakeFile[] = [
      { field: 'photo', name: 'photo.png', data: png(), type: 'image/png' },
      { field: 'report', name: 'report.pdf', data: new Blob([new Uint8Array(pdf())]) },
    ];
    const result = await client.submit(
      form.code,
      { name: 'Grace', tags: ['x', 'y'], contact: { city: 'Paris' }, subscribe: true },
      { files },
    );
    expect(result.files.map((file) => [file.field, file.name, file.mimeType])).toEqual([
      ['photo', 'photo.png', 'image/png'],
      ['report', 'report.pdf', 'application/pdf'],
    ]);
    const em = harness.services.db.em.fork();
    const row = await em.findOneOrFail(SubmissionSchema, { id: result.id });
    expect(row.data).toEqual({ name: 'Grace', tags: ['x', 'y'], contact: { city: 'Paris' }, subscribe: 'true' });
    expect(await em.count(StoredFileSchema, { submission: result.id })).toBe(2);
  });

  describe('through a gateway that refuses connections, then comes back', () => {
    let proxy: TcpProxy;

    beforeAll(async () => {
      const gateway = new URL(harness.gateway.url);
      proxy = await startTcpProxy({ host: gateway.hostname, port: Number(gateway.port) });
    });

    afterAll(async () => {
      await proxy?.close();
    });

    it('retries with the same key and stores exactly one submission', async () => {
      const client = clientFor(`http://127.0.0.1:${proxy.port}`);
      await proxy.cut();
      const before = await footprint(harness.services);
      const pending = client.submit(
        form.code,
        { name: 'Retry' },
        { files: [{ field: 'f', name: 'a.png', data: png() }] },
      );
      await new Promise((resolve) => setTimeout(resolve, 600));
      await proxy.restore();
      const result = await pending;
      expect(result.attempts).toBeGreaterThan(1);
      expect(await storedWithKey(result.idempotencyKey)).toBe(1);
      const after = await footprint(harness.services);
      expect({ submissions: after.submissions - before.submissions, files: after.files - before.files }).toEqual({
        submissions: 1,
        files: 1,
      });
    });

    it('gives up with IntakeNetworkError after its attempts when the gateway stays away', async () => {
      const client = clientFor(`http://127.0.0.1:${proxy.port}`, {
        retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
      });
      await proxy.cut();
      try {
        const failure = await client.submit(form.code, { name: 'Gone' }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(IntakeNetworkError);
        expect((failure as IntakeNetworkError).attempts).toBe(3);
      } finally {
        await proxy.restore();
      }
    });
  });

  describe('refusals, each as a typed IntakeProblem', () => {
    async function refusal(
      submit: () => Promise<unknown>,
    ): Promise<{ status: number; code: string; attempts: number; problem: IntakeProblem }> {
      const error = await submit().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(IntakeProblem);
      const problem = error as IntakeProblem;
      expect(problem.known).toBe(true);
      expect(problem.detail).not.toBe('');
      return { status: problem.status, code: problem.code, attempts: problem.attempts, problem };
    }

    const fileCases: [string, string, () => Promise<Buffer> | Buffer][] = [
      ['file_type_not_allowed', 'setup.exe', () => EXECUTABLE_HEADS.pe],
      ['file_type_mismatch', 'photo.png', () => pdf()],
      ['archive_bomb', 'files.zip', () => nestedZipBomb(5, 4)],
      ['archive_macro', 'letter.docx', () => docm()],
      ['archive_executable', 'files.zip', () => zipOf({ 'readme.txt': EXECUTABLE_HEADS.pe })],
      ['archive_path_traversal', 'files.zip', () => rawZip([{ name: '../../etc/passwd', content: 'x' }])],
      [
        'archive_unreadable',
        'files.zip',
        async () => (await zipOf({ 'a.txt': 'hello '.repeat(500) })).subarray(0, 120),
      ],
      ['document_active_content', 'letter.docx', () => docxWithAttachedTemplate('http://attacker.example/t.dotm')],
    ];

    it.each(fileCases)('400 %s for a refused file, not retried', async (code, name, bytes) => {
      const before = await footprint(harness.services);
      const answer = await refusal(async () =>
        clientFor(harness.gateway.url).submit(
          form.code,
          { a: 1 },
          { files: [{ field: 'f', name, data: await bytes() }] },
        ),
      );
      expect({ status: answer.status, code: answer.code, attempts: answer.attempts }).toEqual({
        status: 400,
        code,
        attempts: 1,
      });
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('401 and 403 for missing or wrong credentials, 403 form_forbidden for an unknown form', async () => {
      const url = harness.gateway.url;
      const cases: [() => Promise<unknown>, number, string][] = [
        [() => clientFor(url, { apiKey: '' }).submit(form.code, {}), 401, 'api_key_missing'],
        [() => clientFor(url, { apiKey: 'wrong' }).submit(form.code, {}), 403, 'api_key_invalid'],
        [() => clientFor(url, { siteToken: '' }).submit(form.code, {}), 401, 'token_missing'],
        [() => clientFor(url, { siteToken: 'a.b.c' }).submit(form.code, {}), 403, 'token_invalid'],
        [() => clientFor(url).submit('no-such-form', {}), 403, 'form_forbidden'],
      ];
      for (const [submit, status, code] of cases) {
        const answer = await refusal(submit);
        expect({ status: answer.status, code: answer.code, attempts: answer.attempts }).toEqual({
          status,
          code,
          attempts: 1,
        });
      }
    });

    it('400 body_invalid and 413 payload_too_large', async () => {
      const client = clientFor(harness.gateway.url);
      const forbidden = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>;
      expect(await refusal(() => client.submit(form.code, forbidden))).toMatchObject({
        status: 400,
        code: 'body_invalid',
      });
      const small = await makeForm(harness.services, site.site, { maxFileSize: 100 });
      const big = { field: 'f', name: 'report.pdf', data: pdf(2000) };
      expect(await refusal(() => client.submit(small.code, {}, { files: [big] }))).toMatchObject({
        status: 413,
        code: 'payload_too_large',
      });
    });

    it('400 fields_invalid with every failing field', async () => {
      const shaped = await makeForm(harness.services, site.site, {
        fieldsSchema: toJsonSchema([{ name: 'email', type: 'email', required: true, maxLength: null, choices: null }]),
      });
      const answer = await refusal(() => clientFor(harness.gateway.url).submit(shaped.code, { other: 1 }));
      expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: 'fields_invalid' });
      expect(answer.problem.errors).toEqual([
        { path: 'email', reason: 'is required' },
        { path: 'other', reason: 'is not a field of this form' },
      ]);
    });

    it('400 captcha_invalid and 503 captcha_unavailable (retried, then thrown) for a form with a CAPTCHA', async () => {
      const protectedForm = await makeForm(harness.services, site.site);
      await harness.services.db.em.fork().nativeUpdate(
        FormSchema,
        { id: protectedForm.id },
        {
          captchaProvider: 'turnstile',
          captchaSealedSecret: createCaptchaSecretBox(harness.services.config.tokenEncryptionKey).seal('secret'),
        },
      );
      const port = await closedPort();
      const other = await startGateway(
        withConfig(harness.services, (config) => ({
          ...config,
          captcha: { ...config.captcha, turnstileVerifyUrl: `http://127.0.0.1:${port}/` },
        })),
      );
      try {
        const client = clientFor(other.url, { retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 10_000 } });
        expect(await refusal(() => client.submit(protectedForm.code, {}))).toMatchObject({
          status: 400,
          code: 'captcha_invalid',
          attempts: 1,
        });
        const unavailable = await refusal(() => client.submit(protectedForm.code, { 'cf-turnstile-response': 'x' }));
        expect(unavailable).toMatchObject({ status: 503, code: 'captcha_unavailable', attempts: 2 });
        expect(unavailable.problem.retryAfter).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    });

    it('503 scanner_unavailable: not waited for when Retry-After is longer than the client will wait', async () => {
      const port = await closedPort();
      const other = await startGateway(
        withConfig(harness.services, (config) => ({
          ...config,
          clamav: { enabled: true, socket: undefined, host: '127.0.0.1', port },
        })),
      );
      try {
        const client = clientFor(other.url, { retry: { attempts: 5, baseDelayMs: 10, maxDelayMs: 1000 } });
        const started = Date.now();
        const answer = await refusal(() =>
          client.submit(form.code, {}, { files: [{ field: 'f', name: 'report.pdf', data: pdf() }] }),
        );
        expect(answer).toMatchObject({ status: 503, code: 'scanner_unavailable', attempts: 1 });
        expect(answer.problem.retryAfter).toBe(30);
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await other.close();
      }
    });

    it('429 rate_limited with its Retry-After, thrown at once when that is longer than the client will wait', async () => {
      const other = await startGateway(
        withConfig(harness.services, (config) => ({
          ...config,
          rateLimits: { ...config.rateLimits, submissionsPerMinute: 1 },
        })),
      );
      try {
        const { site: limitedSite, token } = await makeSite(harness.services);
        const limitedForm = await makeForm(harness.services, limitedSite);
        const client = clientFor(other.url, {
          siteToken: token,
          retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 500 },
        });
        await client.submit(limitedForm.code, { n: 1 });
        const answer = await refusal(() => client.submit(limitedForm.code, { n: 2 }));
        expect({ status: answer.status, code: answer.code }).toEqual({ status: 429, code: 'rate_limited' });
        expect(answer.problem.retryAfter).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    });
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver;
    let worker: DeliveryWorker;

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
    });

    afterAll(async () => {
      await worker?.close();
      await receiver?.close();
    });

    it("verifies the delivery worker's signature over the raw body, and refuses a changed body", async () => {
      const services = withConfig(harness.services, (config) => ({
        ...config,
        delivery: { ...config.delivery, allowPrivateAddresses: true, pollIntervalMs: 50 },
      }));
      const hooked = await makeForm(harness.services, site.site);
      const { secret } = await makeWebhook(harness.services, hooked, { url: `${receiver.url}/hook` });
      worker = createDeliveryWorker(services);
      worker.start();
      await clientFor(harness.gateway.url).submit(hooked.code, { name: 'Zoë' });
      await receiver.waitFor(1);
      const [delivery] = receiver.received;
      expect(verifyWebhook(secret, delivery!.headers, delivery!.body)).toBe(true);
      expect(verifyWebhook(secret, new Headers(delivery!.headers), Buffer.from(delivery!.body))).toBe(true);
      expect(verifyWebhook(secret, delivery!.headers, delivery!.body.replace('Zo', 'Eve'))).toBe(false);
      expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'submission.created' });
    });
  });
});

const clamd = await clamdStatus();

describeClamd(clamd, `@intake/client and a scanning gateway on ${testDriverName()}`, (found) => {
  it('400 file_infected as a typed IntakeProblem, nothing stored', async () => {
    const scanning = await startGateway(
      withConfig(harness.services, (config) => ({
        ...config,
        clamav: { enabled: true, socket: undefined, host: undefined, port: undefined, ...found.target },
      })),
    );
    try {
      const before = await footprint(harness.services);
      const error = await clientFor(scanning.url)
        .submit(form.code, {}, { files: [{ field: 'f', name: 'eicar.txt', data: eicarBytes() }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IntakeProblem);
      expect(error).toMatchObject({ status: 400, code: 'file_infected', attempts: 1 });
      expect(await footprint(harness.services)).toEqual(before);
    } finally {
      await scanning.close();
    }
  });
});
