// Redis for the tests: the shared server of TEST_REDIS_URL (default: the local one), and a scratch
// redis-server of our own for the tests that stop it. When Redis cannot be had, a suite reports
// itself skipped with the reason, except under CI=true, where it fails instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { describeWithRealPart } from './real-part.js';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A fresh key prefix, so test runs sharing one Redis never see each other's counts. */
export function testRedisPrefix(): string {
  return `intake-test-${randomBytes(6).toString('hex')}`;
}

function client(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
    // Its default (2 s) keeps a refused probe's timer, and so the test process, alive.
    disconnectTimeout: 50,
  });
}

/** Why Redis at `url` cannot be used, or undefined when it answers PING. */
export async function redisUnreachable(url = TEST_REDIS_URL): Promise<string | undefined> {
  const redis = client(url);
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG' ? undefined : 'Redis did not answer PING';
  } catch (error) {
    return `no Redis at ${new URL(url).host} (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

/** `describe` when `unreachable` is undefined; otherwise skipped with the reason, or failing under CI=true. */
export function describeWithRedis(unreachable: string | undefined, title: string, body: () => void): void {
  describeWithRealPart(
    title,
    unreachable === undefined
      ? { available: true, value: undefined }
      : { available: false, reason: unreachable, placeholder: undefined },
    body,
  );
}

/** Runs a command on the Redis at `url` (inspection from the tests). */
export async function withRedis<T>(url: string, run: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = client(url);
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

/** Removes every key under a test prefix. */
export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  await withRedis(url, async (redis) => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ScratchRedis {
  url: string;
  /** Starts (or starts again) the server on the same port and waits until it answers. */
  start(): Promise<void>;
  /** Kills the server and waits until it is gone. */
  stop(): Promise<void>;
}

/** A redis-server of our own on a free port, with no persistence, that a test may stop and start. */
export async function scratchRedis(): Promise<ScratchRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let running: { child: ChildProcess; exited: Promise<unknown> } | undefined;
  const stop = async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    running = undefined;
  };
  const start = async () => {
    await stop();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    running = { child, exited };
    const failed = new Promise<never>((_, reject) => child.once('error', reject));
    failed.catch(() => undefined);
    const deadline = Date.now() + 10_000;
    while ((await Promise.race([redisUnreachable(url), failed])) !== undefined) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`redis-server did not start on port ${port}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { url, start, stop };
}

/** Why a scratch redis-server cannot be started here, or undefined when it can. */
export async function scratchRedisUnavailable(): Promise<string | undefined> {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  return new Promise((resolve) => {
    probe.once('error', () => resolve('redis-server is not installed'));
    probe.once('exit', (code) => resolve(code === 0 ? undefined : 'redis-server --version failed'));
  });
}
