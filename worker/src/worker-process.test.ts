// The delivery worker as its own process (`npm run start:worker`, compiled code): two workers on
// one PostgreSQL database deliver each event exactly once, and a worker killed mid-delivery
// leaves the delivery to another worker once its lease ends. PostgreSQL only: the embedded
// database belongs to one process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { enqueueSubmissionDeliveries } from '@intake/shared/delivery';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  FormSchema,
  SubmissionSchema,
  type Form,
} from '@intake/shared/entities';
import {
  answer,
  createTestServices,
  describeOnPostgres,
  hang,
  killProcesses,
  makeForm,
  makeSite,
  makeWebhook,
  runScript,
  startWebhookReceiver,
  waitForLogEntry,
  type StartedProcess,
  type WebhookReceiver,
} from '@intake/shared/test';

jest.setTimeout(90_000);

function runWorker(env: Record<string, string>): StartedProcess {
  const cwd = mkdtempSync(path.join(tmpdir(), 'intake-worker-'));
  return runScript('worker/dist/main.js', cwd, { NODE_ENV: 'test', ...env });
}

const attemptsLogged = (running: StartedProcess) => running.output().split('"msg":"delivery attempt"').length - 1;

describe('delivery worker process', () => {
  it('refuses to run on the embedded database', async () => {
    const running = runWorker({});
    expect(await running.exited).toBe(1);
    expect(running.output()).toContain('DATABASE_URL');
  });
});

describeOnPostgres('delivery worker processes on postgresql', () => {
  let services: Awaited<ReturnType<typeof createTestServices>>;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const started: StartedProcess[] = [];

  const start = async () => {
    const running = runWorker(env);
    started.push(running);
    await waitForLogEntry(running, (entry) => entry.msg === 'delivery worker started', 'the worker starting', 30_000);
    return running;
  };

  const submit = async (form: Form, index: number) => {
    const em = services.db.em.fork();
    const submission = em.create(SubmissionSchema, { form: em.getReference(FormSchema, form.id), data: { index } });
    await enqueueSubmissionDeliveries(em, form, submission);
    await em.flush();
    return submission.id;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    services = await createTestServices();
    const { config } = services;
    env = {
      DATABASE_URL: services.testDb.databaseUrl!,
      API_KEY: config.apiKey,
      JWT_SECRET: config.jwtSecret,
      TOKEN_ENCRYPTION_KEY: config.tokenEncryptionKey.toString('hex'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '3000',
      DELIVERY_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'info',
    };
  });

  afterEach(async () => {
    await killProcesses(started.splice(0));
  });

  afterAll(async () => {
    await receiver?.close();
    await services?.close();
  });

  it('two workers at once deliver each of 30 events exactly once, and stop on SIGTERM', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site);
    const { secret } = await makeWebhook(services, form, { url: `${receiver.url}/concurrent` });
    receiver.secret = secret;
    // A slow receiver keeps one worker busy, so the other claims beside it.
    receiver.fallback = answer(200, 'ok', 100);
    const before = receiver.received.length;
    const [a, b] = [await start(), await start()];
    const submissions: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      submissions.push(await submit(form, index));
    }
    await receiver.waitFor(before + 30, 30_000);
    // Time for any duplicate to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const requests = receiver.received.slice(before);
    expect(requests).toHaveLength(30);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(30);
    expect(requests.every((request) => request.verified)).toBe(true);
    expect(new Set(requests.map((request) => request.json.data.submissionId))).toEqual(new Set(submissions));
    const em = services.db.em.fork();
    const rows = await em.find(DeliverySchema, { submission: { $in: submissions } });
    expect(rows.map((row) => [row.status, row.attemptCount])).toEqual(rows.map(() => ['succeeded', 1]));
    // Both took part.
    expect(attemptsLogged(a!)).toBeGreaterThan(0);
    expect(attemptsLogged(b!)).toBeGreaterThan(0);
    expect(attemptsLogged(a!) + attemptsLogged(b!)).toBe(30);

    a!.child.kill('SIGTERM');
    b!.child.kill('SIGTERM');
    expect(await Promise.all([a!.exited, b!.exited])).toEqual([0, 0]);
    receiver.fallback = answer(200);
  });

  it('a worker killed mid-delivery leaves the delivery to the next worker after its lease', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site);
    const { secret } = await makeWebhook(services, form, { url: `${receiver.url}/crash` });
    receiver.secret = secret;
    const before = receiver.received.length;
    receiver.plan(hang());
    const doomed = await start();
    const submissionId = await submit(form, 0);
    await receiver.waitFor(before + 1);
    // The receiver holds the request; the worker dies before it can record anything.
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();
    const em = services.db.em.fork();
    const [held] = await em.find(DeliverySchema, { submission: submissionId });
    expect(held).toEqual(expect.objectContaining({ status: 'pending', attemptCount: 1 }));
    expect(held!.lockedUntil).toBeInstanceOf(Date);

    await start();
    await receiver.waitFor(before + 2);
    // Not before the lease (3 s from the claim) ran out.
    expect(Date.now() - killedAt).toBeGreaterThan(1500);
    const [first, second] = receiver.received.slice(before);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.verified).toBe(true);
    let row = held!;
    for (let round = 0; round < 100 && row.status !== 'succeeded'; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = await services.db.em.fork().findOneOrFail(DeliverySchema, { id: held!.id });
    }
    expect(row).toEqual(expect.objectContaining({ status: 'succeeded', attemptCount: 2, lockToken: null }));
    const attempts = await services.db.em.fork().find(DeliveryAttemptSchema, { delivery: held!.id });
    expect(attempts.map((attempt) => [attempt.number, attempt.succeeded])).toEqual([[2, true]]);
    // Delivered once after the crash, not again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.length).toBe(before + 2);
  });
});
