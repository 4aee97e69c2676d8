// 3. Database gone: PostgreSQL stops during a load (a proxy under the test's control stands for the
// server: closing it refuses new connections and breaks the open ones). Requests answer 503
// service_unavailable with Retry-After and never hang; nothing is half-stored; /readyz says 503
// while the database is gone and 200 after; the gateway recovers by itself, and a retry of each
// refused request with its Idempotency-Key stores it exactly once.
import { setTimeout as sleep } from 'node:timers/promises';
import { sweepOrphans } from '@intake/shared/storage';
import { elapsedMs, runPool } from './support/load.js';
import { describeOnPostgres } from './support/postgres.js';
import { startReliabilityGateway, type ReliabilityGateway } from './support/gateway.js';
import { sendJson, sendMultipart, tally, type Credentials, type Outcome } from './support/requests.js';
import { readStore } from './support/store.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const CONCURRENCY = 8;
const OUTAGES = 2;
const OUTAGE_MS = 3000;
// No request may take longer than this, outage or not: a hung request is a failure.
const MAX_LATENCY_MS = 10_000;

async function readiness(url: string): Promise<number> {
  return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(MAX_LATENCY_MS) })).status;
}

async function waitForReadiness(url: string, status: number, timeoutMs: number): Promise<number> {
  const start = performance.now();
  while ((await readiness(url)) !== status) {
    if (performance.now() - start > timeoutMs) {
      throw new Error(`/readyz did not answer ${status} within ${timeoutMs} ms`);
    }
    await sleep(100);
  }
  return elapsedMs(start);
}

describeOnPostgres('database gone during a load', (serverUrl) => {
  let proxy: TcpProxy;
  let harness: ReliabilityGateway;

  beforeAll(async () => {
    const server = new URL(serverUrl);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    harness = await startReliabilityGateway(serverUrl, { gatewayDatabaseUrl: (url) => proxy.through(url) });
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await harness?.close();
    await proxy?.close();
  });

  it('503 service_unavailable with Retry-After while it is gone, nothing half-stored, recovery by itself', async () => {
    const credentials: Credentials = {
      url: harness.url,
      apiKey: harness.apiKey,
      token: harness.token,
      formCode: harness.form.code,
    };
    const send = (seq: string) => {
      const options = { idempotencyKey: `key-${seq}` };
      return Number(seq.slice(1)) % 4 === 0
        ? sendMultipart(credentials, seq, options)
        : sendJson(credentials, seq, options);
    };

    const outcomes: Outcome[] = [];
    let counter = 0;
    let loading = true;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (loading) {
        outcomes.push(await send(`s${counter++}`));
      }
    });

    // Two outages in a row: the second finds whatever the first left behind (a leaked connection).
    const windows: { cutAt: number; restoreAt: number; recoveredAt: number; endAt: number }[] = [];
    const figures: string[] = [];
    for (let cycle = 0; cycle < OUTAGES; cycle++) {
      await sleep(1500);
      const cutAt = performance.now();
      await proxy.cut();
      const downWithinMs = await waitForReadiness(harness.url, 503, MAX_LATENCY_MS);
      await sleep(OUTAGE_MS);
      const restoreAt = performance.now();
      await proxy.restore();
      const recoveredWithinMs = await waitForReadiness(harness.url, 200, 30_000);
      windows.push({ cutAt, restoreAt, recoveredAt: performance.now(), endAt: Infinity });
      figures.push(`readyz 503 ${downWithinMs} ms after the cut, 200 ${recoveredWithinMs} ms after the return`);
    }
    await sleep(1500);
    loading = false;
    await Promise.all(workers);
    windows.forEach((window, index) => (window.endAt = windows[index + 1]?.cutAt ?? Infinity));

    const during = outcomes.filter((outcome) =>
      windows.some((window) => outcome.startedAt > window.cutAt + 500 && outcome.endedAt < window.restoreAt),
    );
    const after = outcomes.filter((outcome) =>
      windows.some((window) => outcome.startedAt > window.recoveredAt && outcome.endedAt < window.endAt),
    );
    const slowest = Math.max(...outcomes.map((outcome) => outcome.endedAt - outcome.startedAt));
    console.log(
      `outage: ${outcomes.length} requests over ${OUTAGES} outages of ${OUTAGE_MS} ms; ${figures.join('; ')}; slowest answer ${Math.round(slowest)} ms`,
      { all: tally(outcomes), during: tally(during), after: tally(after) },
    );

    // Every answer is a success or the outage's problem document; none hangs.
    const refusals = outcomes.filter((outcome) => outcome.status !== 201);
    expect(Object.keys(tally(outcomes)).sort()).toEqual(['201', '503 service_unavailable']);
    for (const refusal of refusals) {
      expect({ retryAfter: refusal.retryAfter, type: refusal.contentType }).toEqual({
        retryAfter: expect.stringMatching(/^\d+$/),
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
    expect(slowest).toBeLessThan(MAX_LATENCY_MS);
    // While the database is gone nothing gets in; once it is back, everything does.
    expect(during.length).toBeGreaterThan(10);
    expect(tally(during)).toEqual({ '503 service_unavailable': during.length });
    expect(after.length).toBeGreaterThan(10);
    expect(tally(after)).toEqual({ 201: after.length });

    // A retry of each refused request with its key stores it; the store then holds every request
    // exactly once, each file whole, and no object or upload without its row.
    const retries = await runPool(refusals.length, CONCURRENCY, (index) => send(refusals[index]!.seq));
    expect(tally(retries)).toEqual({ 201: refusals.length });
    const store = await readStore(harness.inspector, harness.services.config.dataDir);
    const storedSeqs = [...store.submissions.values()].map((submission) => submission.data.seq as string);
    expect(storedSeqs.sort()).toEqual(outcomes.map((outcome) => outcome.seq).sort());
    const sentFiles = new Map(outcomes.map((outcome) => [outcome.seq, outcome.files.map((file) => file.sha256)]));
    const incomplete = [...store.submissions.values()].filter(
      (submission) =>
        JSON.stringify(submission.files.map((file) => file.sha256)) !==
        JSON.stringify(sentFiles.get(submission.data.seq as string)),
    );
    expect(incomplete).toEqual([]);
    expect(store.brokenFiles).toEqual([]);
    expect(store.temporaryUploads).toEqual([]);
    // Objects of writes cut off mid-commit are kept (the commit may have landed); with no row they
    // are the orphan sweep's, which, run now that nothing is in flight, leaves none.
    const sweep = await sweepOrphans(harness.services, { graceMs: 0 });
    console.log(`outage: ${store.orphanObjects.length} objects of interrupted writes left to the sweep`, sweep);
    expect(sweep.removed).toBe(store.orphanObjects.length);
    expect((await readStore(harness.inspector, harness.services.config.dataDir)).orphanObjects).toEqual([]);

    // Every pooled connection is back once the load is over: none was lost with a broken transaction.
    const pool = (await harness.services.db.em.getConnection().getNativeClient()) as {
      totalCount: number;
      idleCount: number;
    };
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
