// The compiled gateway (`gateway/dist/main.js`) SIGKILLed between a commit group's file sync and its
// commit: the group's statement is held by a row lock the test takes on its form, and the process is
// killed while PostgreSQL shows that statement waiting. No 201 was sent for the group, no row exists,
// and the orphan sweep removes its files; a submission answered 201 before keeps its row and file.
// PostgreSQL only (the lock is taken from another connection); build with `npx tsc -b`.
import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Em } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { generateSecret } from '@intake/shared/secrets';
import { createLocalStorage, sweepOrphans } from '@intake/shared/storage';
import {
  createTestServices,
  describeOnPostgres,
  killProcesses,
  listeningUrl,
  makeForm,
  makeSite,
  missingBuild,
  runScript,
  type StartedProcess,
} from '@intake/shared/test';
import { png } from '@intake/test-files';
import { send } from '../test/harness.js';

const GATEWAY = 'gateway/dist/main.js';
const GROUP = 4;

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function objectsIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((entry) => /^[a-f0-9]{2}\/[a-f0-9]{40}$/.test(entry)).sort();
}

function pngUpload(): FormData {
  const body = new FormData();
  body.append('name', 'Ada');
  body.append('photo', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'photo.png');
  return body;
}

/** Holds `FOR UPDATE` on a form's row in an open transaction until `release`: its inserts wait. */
function lockForm(em: Em, formId: string): { taken: Promise<void>; release: () => Promise<void> } {
  let release!: () => void;
  let taken!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const takenNow = new Promise<void>((resolve) => (taken = resolve));
  const done = em.transactional(async (tx) => {
    await tx.execute('select 1 from "forms" where "id" = ? for update', [formId]);
    taken();
    await released;
    // Rolled back: the lock only held writes up.
    throw new Error('released');
  });
  const settled = done.catch(() => undefined);
  return { taken: takenNow, release: () => (release(), settled) };
}

describeOnPostgres('a gateway killed between its group file sync and its commit', () => {
  let services: Awaited<ReturnType<typeof createTestServices>>;
  let gateway: StartedProcess | undefined;
  const secrets = {
    API_KEY: generateSecret(32),
    JWT_SECRET: generateSecret(32),
    TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
  };

  beforeAll(async () => {
    services = await createTestServices(secrets);
  });

  afterAll(async () => {
    await killProcesses([gateway]);
    await services?.close();
  });

  it('sent no 201 for the group, left no row, and the sweep removes its files', async () => {
    const built = missingBuild([GATEWAY]);
    if (built) {
      throw new Error(built);
    }
    const { dataDir } = services.config;
    writeFileSync(
      path.join(dataDir, '.env'),
      Object.entries({
        NODE_ENV: 'test',
        DATABASE_URL: services.testDb.databaseUrl!,
        DATA_DIR: dataDir,
        GATEWAY_PORT: '0',
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '0',
        ...secrets,
      })
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    const { site, token } = await makeSite(services);
    const lead = await makeForm(services, site);
    const grouped = await makeForm(services, site);
    gateway = runScript(GATEWAY, dataDir);
    const url = await listeningUrl(gateway);
    const files = path.join(dataDir, 'files');
    const em = services.db.em.fork();
    const waitingInserts = async (): Promise<string[]> =>
      (
        await em.execute<{ query: string }[]>(
          `select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).map((row) => row.query);

    // The lead submission's write waits on its form's lock; the group's queue behind it.
    const leadLock = lockForm(services.db.em.fork(), lead.id);
    const groupLock = lockForm(services.db.em.fork(), grouped.id);
    await Promise.all([leadLock.taken, groupLock.taken]);
    const leadAnswer = send(url, lead.code, { apiKey: secrets.API_KEY, token, body: pngUpload() });
    await waitFor(async () => (await waitingInserts()).length === 1, "the lead's insert waiting");
    const answers = Array.from({ length: GROUP }, () =>
      send(url, grouped.code, { apiKey: secrets.API_KEY, token, body: pngUpload() }).then(
        (response) => response.status,
        () => 'no answer' as const,
      ),
    );
    // Every upload of the group is in storage (put, not yet synced): their writes are queued.
    await waitFor(async () => (await objectsIn(files)).length === 1 + GROUP, 'the uploads in storage');
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The lead commits; the group is then written: its files synced, then its statement, which waits.
    await leadLock.release();
    expect((await leadAnswer).status).toBe(201);
    await waitFor(
      async () => (await waitingInserts()).some((query) => query.includes('jsonb_to_recordset')),
      "the group's statement waiting",
    );
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    // A backend waiting on a lock notices its client is gone only when it next writes to it: once
    // the lock was released, it would commit the statement the killed process sent. A process dying
    // with its machine takes the connection with it; here the test ends the waiting backend.
    await em.execute(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    await waitFor(async () => (await waitingInserts()).length === 0, 'the waiting statement ended');
    await groupLock.release();

    expect(await Promise.all(answers)).toEqual(Array(GROUP).fill('no answer'));
    const rows = await em.execute<{ form_id: string; key: string }[]>(
      `select s."form_id", f."storage_key" as "key" from "submissions" s join "stored_files" f on f."submission_id" = s."id"`,
    );
    expect(rows.map((row) => row.form_id)).toEqual([lead.id]);
    expect(await objectsIn(files)).toHaveLength(1 + GROUP);
    const swept = await sweepOrphans(
      { db: services.db, storage: createLocalStorage(files), logger: createLogger('silent') },
      { graceMs: 0, now: () => new Date(Date.now() + 60_000) },
    );
    expect(swept).toMatchObject({ scanned: 1 + GROUP, removed: GROUP });
    expect(await objectsIn(files)).toEqual([rows[0]!.key]);
  });
});
