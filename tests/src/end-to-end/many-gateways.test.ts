// Production shape: two gateway processes and one admin process on one PostgreSQL and one Redis.
// Every accepted submission lands exactly once, and the per-site rate limit is shared by both
// gateways. Runs the compiled entry points (build with `npx tsc -b`) and needs TEST_DATABASE_URL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSecret } from '@intake/shared/secrets';
import {
  createScratchPostgres,
  describeOnPostgres,
  graphqlData,
  killProcesses,
  listeningUrl,
  missingBuild,
  runScript,
  type StartedProcess,
  TEST_REDIS_URL,
  describeWithRedis,
  dropRedisKeys,
  redisUnreachable,
  testRedisPrefix,
} from '@intake/shared/test';
import pg from 'pg';

const SCRIPTS = {
  migrate: 'shared/dist/db/migrate-cli.js',
  gateway: 'gateway/dist/main.js',
  admin: 'admin-api/dist/main.js',
};
const LIMIT = 40;
const REQUESTS = 60;
const ADMIN_EMAIL = 'ops@example.com';
const ADMIN_PASSWORD = generateSecret(18);

const serverUrl = process.env.TEST_DATABASE_URL;
const redisMissing = serverUrl ? await redisUnreachable() : undefined;

async function countRows(databaseUrl: string, formId: string): Promise<{ rows: number; ids: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>('select id from submissions where form_id = $1', [formId]);
    return { rows: result.rowCount ?? 0, ids: result.rows.map((row) => row.id) };
  } finally {
    await client.end();
  }
}

function suite(): void {
  const processes: StartedProcess[] = [];
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  const redisKeyPrefix = testRedisPrefix();

  beforeAll(async () => {
    const built = missingBuild(Object.values(SCRIPTS));
    if (built) {
      throw new Error(built);
    }
    ({ url: databaseUrl, drop: dropDatabase } = await createScratchPostgres(serverUrl!));
  });

  afterAll(async () => {
    await killProcesses(processes);
    await dropDatabase?.();
    await dropRedisKeys(TEST_REDIS_URL, redisKeyPrefix);
  });

  it('lands every submission once and shares the per-site rate limit across two gateways', async () => {
    // One configuration for every process, as a deployment's env file would give it.
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-many-'));
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(cwd, 'data'),
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      GATEWAY_PORT: '0',
      ADMIN_PORT: '0',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      LOG_LEVEL: 'info',
    };
    writeFileSync(
      path.join(cwd, '.env'),
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );

    const migrate = runScript(SCRIPTS.migrate, cwd);
    expect(await migrate.exited).toBe(0);
    const started = [runScript(SCRIPTS.gateway, cwd), runScript(SCRIPTS.gateway, cwd), runScript(SCRIPTS.admin, cwd)];
    processes.push(...started);
    const [gatewayA, gatewayB, admin] = await Promise.all(started.map((service) => listeningUrl(service)));
    expect(gatewayA).not.toBe(gatewayB);
    for (const gateway of [gatewayA!, gatewayB!]) {
      const ready = await fetch(`${gateway}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks.rateLimits).toBe('redis');
    }

    const { login } = await graphqlData<{ login: { token: string } }>(
      admin!,
      'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
      { e: ADMIN_EMAIL, p: ADMIN_PASSWORD },
    );
    const adminToken = login.token;
    const { createSite } = await graphqlData<{ createSite: { id: string } }>(
      admin!,
      'mutation { createSite(input: { name: "Shop", domain: "shop.example" }) { id } }',
      {},
      adminToken,
    );
    const { createForm } = await graphqlData<{ createForm: { id: string; code: string } }>(
      admin!,
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact" }) { id code } }',
      { s: createSite.id },
      adminToken,
    );
    const { siteApiView } = await graphqlData<{ siteApiView: { token: string } }>(
      admin!,
      'query($s: ID!) { siteApiView(siteId: $s) { token } }',
      { s: createSite.id },
      adminToken,
    );

    // Alternately to both gateways, ten at a time.
    const answers: { status: number; id?: string; code?: string }[] = [];
    for (let batch = 0; batch < REQUESTS; batch += 10) {
      const sent = Array.from({ length: 10 }, async (_, offset) => {
        const n = batch + offset;
        const response = await fetch(`${n % 2 === 0 ? gatewayA : gatewayB}/api/v1/send/${createForm.code}`, {
          method: 'POST',
          headers: {
            'X-KEY-SERVICE': env.API_KEY,
            Authorization: `Bearer ${siteApiView.token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ n }),
        });
        const body = (await response.json()) as { id?: string; code?: string };
        return { status: response.status, id: body.id, code: body.code };
      });
      answers.push(...(await Promise.all(sent)));
    }
    const accepted = answers.filter((answer) => answer.status === 201);
    const limited = answers.filter((answer) => answer.status === 429);
    expect({ accepted: accepted.length, limited: limited.length }).toEqual({
      accepted: LIMIT,
      limited: REQUESTS - LIMIT,
    });
    expect(limited.every((answer) => answer.code === 'rate_limited')).toBe(true);
    // Per-process limits would have accepted all 60 (30 per gateway): the limit is shared.
    const acceptedIds = accepted.map((answer) => answer.id!);
    expect(new Set(acceptedIds).size).toBe(LIMIT);

    const stored = await countRows(databaseUrl, createForm.id);
    expect(stored.rows).toBe(LIMIT);
    expect(stored.ids.sort()).toEqual([...acceptedIds].sort());
    const { submissions } = await graphqlData<{ submissions: { totalCount: number } }>(
      admin!,
      'query($f: ID!) { submissions(formId: $f) { totalCount } }',
      { f: createForm.id },
      adminToken,
    );
    expect(submissions.totalCount).toBe(LIMIT);

    for (const service of started) {
      service.child.kill('SIGTERM');
    }
    expect(await Promise.all(started.map((service) => service.exited))).toEqual([0, 0, 0]);
  }, 180_000);
}

// PostgreSQL first (one rule for it, see real-part.ts), then Redis.
describeOnPostgres('many gateways on one PostgreSQL', () => {
  describeWithRedis(redisMissing, 'and one Redis', suite);
});
