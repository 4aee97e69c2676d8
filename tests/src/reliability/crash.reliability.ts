// 2. Crash: SIGKILL the gateway process in the middle of a multipart load, then start it again.
// Every submission that got a 201 is there whole; no submission is missing a file; no file row is
// missing its object; and what the killed process left behind (stored objects whose rows never
// committed, half-received uploads in DATA_DIR/tmp) is removed by the orphan sweep of the restarted
// gateway, once older than its grace period.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { migrate, openDatabase, type Database } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { generateSecret } from '@intake/shared/secrets';
import { createServices } from '@intake/shared/services';
import { createScratchPostgres, makeForm, makeSite, testConfig } from '@intake/shared/test';
import { spawnGateway, type GatewayProcess } from './support/gateway-process.js';
import { describeOnPostgres } from './support/postgres.js';
import { runPool } from './support/load.js';
import { sendMultipart, tally, type Credentials, type Outcome } from './support/requests.js';
import { readStore, type StoreState } from './support/store.js';

const CONCURRENCY = 16;
const PDF_BYTES = 256 * 1024;
const GRACE_SECONDS = 2;
// Kill once this many submissions were accepted: the load is then in full swing.
const ACCEPTED_BEFORE_KILL = 60;

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

describeOnPostgres('crash: the gateway process killed mid-load', (serverUrl) => {
  let drop: () => Promise<void>;
  let db: Database;
  let dataDir: string;
  let cwd: string;
  let env: Record<string, string>;
  let credentials: Omit<Credentials, 'url'>;
  let running: GatewayProcess | undefined;

  beforeAll(async () => {
    const scratch = await createScratchPostgres(serverUrl);
    drop = scratch.drop;
    db = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
    await migrate(db);
    dataDir = await mkdtemp(path.join(tmpdir(), 'intake-crash-data-'));
    cwd = await mkdtemp(path.join(tmpdir(), 'intake-crash-cwd-'));
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      // `info` for the `listening` line.
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_FAILURES_PER_MINUTE: '1000000',
      ORPHAN_SWEEP_GRACE_SECONDS: String(GRACE_SECONDS),
      ORPHAN_SWEEP_INTERVAL_SECONDS: '1',
    };
    // The site and form, made over the same database with the same secrets the process uses.
    const config = testConfig(env);
    const services = createServices(config, db, createLogger('silent'));
    const { site, token } = await makeSite(services);
    const form = await makeForm(services, site);
    credentials = { apiKey: env.API_KEY!, token, formCode: form.code };
  });

  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await db?.close(true);
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  });

  it('keeps every accepted submission whole, stores nothing half, and sweeps what the killed process left', async () => {
    running = await spawnGateway(cwd, env);
    const first: Credentials = { ...credentials, url: running.url };
    const outcomes: Outcome[] = [];
    let counter = 0;
    let loading = true;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (loading) {
        outcomes.push(await sendMultipart(first, `c${counter++}`, { pdfBytes: PDF_BYTES }));
      }
    });
    await waitFor(
      async () => outcomes.filter((outcome) => outcome.status === 201).length >= ACCEPTED_BEFORE_KILL,
      120_000,
      `${ACCEPTED_BEFORE_KILL} accepted submissions`,
    );
    running.child.kill('SIGKILL');
    const killedAt = Date.now();
    await running.exited;
    loading = false;
    await Promise.all(workers);
    running = undefined;

    const accepted = outcomes.filter((outcome) => outcome.status === 201);
    const sent = new Map(outcomes.map((outcome) => [outcome.seq, outcome.files.map((file) => file.sha256)]));
    // Only answers and broken connections: nothing else was refused.
    expect(Object.keys(tally(outcomes)).sort()).toEqual(['201', 'network']);

    const checkWhole = (store: StoreState) => {
      // Every 201 is stored, with the files it was answered with.
      const lost = accepted.filter(
        (outcome) =>
          JSON.stringify(store.submissions.get(outcome.id!)?.files.map((file) => file.sha256)) !==
          JSON.stringify(sent.get(outcome.seq)),
      );
      expect(lost.map((outcome) => outcome.seq)).toEqual([]);
      // Every stored submission (those cut off before their answer too) has all its files.
      const incomplete = [...store.submissions.values()].filter(
        (submission) =>
          JSON.stringify(submission.files.map((file) => file.sha256)) !==
          JSON.stringify(sent.get(submission.data.seq as string)),
      );
      expect(incomplete.map((submission) => submission.data.seq)).toEqual([]);
      // Every file row has its object, byte for byte.
      expect(store.brokenFiles).toEqual([]);
    };

    const afterKill = await readStore(db, dataDir);
    checkWhole(afterKill);
    const leftovers = { objects: afterKill.orphanObjects.length, uploads: afterKill.temporaryUploads.length };
    console.log(
      `crash: killed after ${accepted.length} accepted of ${outcomes.length} sent; ` +
        `${afterKill.submissions.size} stored; left behind: ${leftovers.objects} objects without a row, ${leftovers.uploads} uploads`,
    );

    // Killed with requests in flight, the process leaves something behind for the sweep to find.
    expect(leftovers.objects + leftovers.uploads).toBeGreaterThan(0);

    // Restarted once the leftovers are older than the grace period: its sweep at start removes them.
    await sleep(Math.max(0, killedAt + GRACE_SECONDS * 1000 + 500 - Date.now()));
    running = await spawnGateway(cwd, env);
    await waitFor(
      async () => {
        const store = await readStore(db, dataDir);
        return store.orphanObjects.length === 0 && store.temporaryUploads.length === 0;
      },
      15_000,
      'the orphan sweep',
    );
    const afterSweep = await readStore(db, dataDir);
    checkWhole(afterSweep);
    expect(afterSweep.submissions.size).toBe(afterKill.submissions.size);

    // And the restarted gateway takes submissions again.
    const second: Credentials = { ...credentials, url: running.url };
    const more = await runPool(8, 4, (index) => sendMultipart(second, `r${index}`));
    expect(tally(more)).toEqual({ 201: 8 });
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    running = undefined;
  });
});
