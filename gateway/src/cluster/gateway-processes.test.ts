// GATEWAY_PROCESSES=2 through the compiled `npm run start:gateway` entry: two processes answer on one
// port, /metrics sums them, a process that dies is replaced, and SIGTERM stops them all cleanly.
// Needs PostgreSQL (TEST_DATABASE_URL) and Redis (shared rate-limit counts); build with `npx tsc -b`.
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSecret } from '@intake/shared/secrets';
import {
  createScratchPostgres,
  describeOnPostgres,
  describeWithRedis,
  dropRedisKeys,
  killProcesses,
  listeningUrl,
  missingBuild,
  redisUnreachable,
  runScript,
  TEST_REDIS_URL,
  testRedisPrefix,
  waitForLogEntry,
  type LogEntry,
  type StartedProcess,
} from '@intake/shared/test';

const SCRIPTS = { migrate: 'shared/dist/db/migrate-cli.js', gateway: 'gateway/dist/main.js' };
const serverUrl = process.env.TEST_DATABASE_URL;
const redisMissing = serverUrl ? await redisUnreachable() : undefined;

function logLines(started: StartedProcess): LogEntry[] {
  return started
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogEntry);
}

/** The pids of the primary's children (the gateway processes), from Linux's /proc. */
function childPids(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children === '' ? [] : children.split(' ').map(Number);
}

function suite(): void {
  let gateway: StartedProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const redisKeyPrefix = testRedisPrefix();
  const apiKey = generateSecret(32);

  afterAll(async () => {
    await killProcesses([gateway]);
    await dropDatabase?.();
    await dropRedisKeys(TEST_REDIS_URL, redisKeyPrefix);
  });

  it('serves one port from two processes, sums their metrics, replaces a dead one and stops cleanly', async () => {
    const built = missingBuild(Object.values(SCRIPTS));
    if (built) {
      throw new Error(built);
    }
    const scratch = await createScratchPostgres(serverUrl!);
    dropDatabase = scratch.drop;
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-processes-'));
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: scratch.url,
      DATA_DIR: path.join(cwd, 'data'),
      API_KEY: apiKey,
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      GATEWAY_PORT: '0',
      GATEWAY_PROCESSES: '2',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      AUTH_FAILURES_PER_MINUTE: '1000',
      LOG_LEVEL: 'info',
    };
    writeFileSync(
      path.join(cwd, '.env'),
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    expect(await runScript(SCRIPTS.migrate, cwd).exited).toBe(0);

    gateway = runScript(SCRIPTS.gateway, cwd);
    const url = await listeningUrl(gateway);
    const second = await waitForLogEntry(
      gateway,
      (line) =>
        line.msg === 'listening' &&
        line.gatewayProcess !== undefined &&
        line.url !== undefined &&
        logLines(gateway!).filter((entry) => entry.msg === 'listening').length >= 2,
      'two "listening" lines',
    );
    expect(second.url).toBe(url);
    const primaryPid = gateway.child.pid!;
    expect(childPids(primaryPid)).toHaveLength(2);

    // 40 refused requests (no site token), ten connections at a time: both processes answer some.
    const refuse = () =>
      fetch(`${url}/api/v1/send/anything`, { method: 'POST', headers: { 'X-KEY-SERVICE': apiKey } }).then(
        (response) => response.status,
      );
    for (let batch = 0; batch < 4; batch++) {
      expect(await Promise.all(Array.from({ length: 10 }, refuse))).toEqual(Array(10).fill(401));
    }
    const answeredBy = new Set(
      logLines(gateway)
        .filter((line) => line.msg === 'request' && line.code === 'token_missing')
        .map((line) => line.gatewayProcess),
    );
    expect(answeredBy.size).toBe(2);
    // Whichever process answers /metrics, it counts the refusals of both.
    for (let scrape = 0; scrape < 4; scrape++) {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^intake_refusals_total\{code="token_missing"\} 40$/m);
    }

    const [victim] = childPids(primaryPid);
    process.kill(victim!, 'SIGKILL');
    await waitForLogEntry(gateway, (line) => line.msg === 'a gateway process exited; starting another', 'the restart');
    await waitForLogEntry(
      gateway,
      () => logLines(gateway!).filter((entry) => entry.msg === 'listening').length >= 3,
      'the replacement listening',
    );
    const now = childPids(primaryPid);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(victim);
    expect(await Promise.all(Array.from({ length: 10 }, refuse))).toEqual(Array(10).fill(401));

    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    const lines = logLines(gateway);
    expect(lines.at(-1)).toEqual(expect.objectContaining({ msg: 'stopped' }));
    expect(lines.at(-1)!.gatewayProcess).toBeUndefined();
    // Both processes drained and stopped before the primary did.
    expect(lines.filter((line) => line.msg === 'stopped' && line.gatewayProcess !== undefined)).toHaveLength(2);
  }, 120_000);

  it('refuses several processes without Redis while a rate limit is on, saying so once', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-processes-'));
    const started = runScript(SCRIPTS.gateway, cwd, {
      NODE_ENV: 'test',
      DATABASE_URL: serverUrl!,
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      GATEWAY_PROCESSES: '3',
    });
    expect(await started.exited).toBe(1);
    const said = started.output().match(/GATEWAY_PROCESSES: more than 1 needs REDIS_URL/g) ?? [];
    expect(said).toHaveLength(1);
  }, 60_000);
}

describeOnPostgres('several gateway processes on one port (GATEWAY_PROCESSES)', () => {
  describeWithRedis(redisMissing, 'with Redis', suite);
});
