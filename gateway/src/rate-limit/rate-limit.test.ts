// Rate limits against a listening gateway: accepted submissions per site, failed authentications
// per client address, in memory and in Redis (shared between gateways, falling back to memory
// while Redis is down), and the 429 answer's headers.
import type { Config } from '@intake/shared/config';
import type { RunningServer } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import {
  makeForm,
  makeSite,
  testDriverName,
  TEST_REDIS_URL,
  describeWithRedis,
  dropRedisKeys,
  redisUnreachable,
  scratchRedis,
  scratchRedisUnavailable,
  testRedisPrefix,
  withRedis,
} from '@intake/shared/test';
import { pino } from 'pino';
import { startGateway } from '../index.js';
import { footprint, send, startTestGateway, withConfig } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;
type RateLimitConfig = Config['rateLimits'];

const redisMissing = await redisUnreachable();
const scratchRedisMissing = await scratchRedisUnavailable();

let harness: Harness;
const started: RunningServer[] = [];

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.close()));
  await harness.close();
});

/** Log lines of one gateway, captured as parsed JSON. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines, messages: () => lines.map((line) => line.msg) };
}

/** A gateway on the shared test database with these rate limits (the others off unless given). */
async function gateway(
  limits: Partial<RateLimitConfig>,
  logger?: Services['logger'],
): Promise<{ url: string; apiKey: string }> {
  const services = withConfig(harness.services, (config) => ({
    ...config,
    rateLimits: {
      submissionsPerMinute: 0,
      authFailuresPerMinute: 0,
      browserPostsPerMinute: 0,
      browserFormPostsPerMinute: 0,
      redisUrl: undefined,
      redisKeyPrefix: 'intake',
      trustProxy: false,
      trustProxyHops: 1,
      ...limits,
    },
  }));
  const running = await startGateway(logger ? { ...services, logger } : services);
  started.push(running);
  return { url: running.url, apiKey: services.config.apiKey };
}

async function siteAndForm() {
  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site);
  return { site, token, form };
}

async function submit(
  target: { url: string; apiKey: string },
  form: { code: string },
  token: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return send(target.url, form.code, { apiKey: target.apiKey, token, json: { message: 'hello' }, headers });
}

async function expectRateLimited(response: Response, limit: number): Promise<void> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, code: body.code }).toEqual({ status: 429, code: 'rate_limited' });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status: 429,
      detail: expect.any(String),
    }),
  );
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(response.headers.get('ratelimit-reset'))).toBe(retryAfter);
}

async function statuses(responses: Promise<Response>[]): Promise<number[]> {
  return Promise.all(responses.map(async (pending) => (await pending).status));
}

function count(values: number[], value: number): number {
  return values.filter((item) => item === value).length;
}

describe(`rate limits on ${testDriverName()}`, () => {
  describe('accepted submissions per site per minute (in memory)', () => {
    it('accepts the limit with RateLimit-* headers, then 429 rate_limited with Retry-After, storing nothing', async () => {
      const target = await gateway({ submissionsPerMinute: 3 });
      const { form, token } = await siteAndForm();
      for (const remaining of ['2', '1', '0']) {
        const accepted = await submit(target, form, token);
        expect(accepted.status).toBe(201);
        expect(accepted.headers.get('ratelimit-limit')).toBe('3');
        expect(accepted.headers.get('ratelimit-remaining')).toBe(remaining);
        expect(Number(accepted.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
        expect(Number(accepted.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
      }
      const before = await footprint(harness.services);
      await expectRateLimited(await submit(target, form, token), 3);
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('counts per site: another site of the same gateway is still accepted', async () => {
      const target = await gateway({ submissionsPerMinute: 1 });
      const first = await siteAndForm();
      const second = await siteAndForm();
      expect((await submit(target, first.form, first.token)).status).toBe(201);
      expect((await submit(target, first.form, first.token)).status).toBe(429);
      expect((await submit(target, second.form, second.token)).status).toBe(201);
    });

    it('counts only accepted submissions: refused requests give their point back', async () => {
      const target = await gateway({ submissionsPerMinute: 2 });
      const { form, token } = await siteAndForm();
      for (let i = 0; i < 3; i++) {
        const refused = await send(target.url, form.code, { apiKey: target.apiKey, token, json: '[1]' });
        expect(refused.status).toBe(400);
        expect(refused.headers.get('ratelimit-remaining')).toBe('2');
      }
      expect(await statuses([submit(target, form, token), submit(target, form, token)])).toEqual([201, 201]);
      expect((await submit(target, form, token)).status).toBe(429);
    });

    it('cannot be overshot by concurrent requests', async () => {
      const target = await gateway({ submissionsPerMinute: 5 });
      const { form, token } = await siteAndForm();
      const answered = await statuses(Array.from({ length: 12 }, () => submit(target, form, token)));
      expect({ accepted: count(answered, 201), limited: count(answered, 429) }).toEqual({ accepted: 5, limited: 7 });
    });

    it('lets an Idempotency-Key replay through without costing a point', async () => {
      const target = await gateway({ submissionsPerMinute: 1 });
      const { form, token } = await siteAndForm();
      const first = await submit(target, form, token, { 'Idempotency-Key': 'order-1' });
      expect(first.status).toBe(201);
      const replay = await submit(target, form, token, { 'Idempotency-Key': 'order-1' });
      expect(replay.status).toBe(201);
      expect(((await replay.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
      expect((await submit(target, form, token, { 'Idempotency-Key': 'order-2' })).status).toBe(429);
    });

    it('is off at 0: no 429 and no RateLimit-* headers', async () => {
      const target = await gateway({ submissionsPerMinute: 0, authFailuresPerMinute: 0 });
      const { form, token } = await siteAndForm();
      const answered = await Promise.all(Array.from({ length: 15 }, () => submit(target, form, token)));
      expect(answered.map((response) => response.status)).toEqual(Array(15).fill(201));
      expect(answered[0]!.headers.get('ratelimit-limit')).toBeNull();
      const ready = (await (await fetch(`${target.url}/readyz`)).json()) as { checks: Record<string, string> };
      expect(ready.checks.rateLimits).toBe('off');
      const failures = await statuses(
        Array.from({ length: 40 }, () => send(target.url, form.code, { apiKey: null, token, json: {} })),
      );
      expect(failures).toEqual(Array(40).fill(401));
    });
  });

  describe('failed authentications per client address per minute (in memory)', () => {
    it('after the limit, refuses further failing requests from that address, never valid credentials', async () => {
      const target = await gateway({ authFailuresPerMinute: 4 });
      const { form, token } = await siteAndForm();
      const failures = [
        send(target.url, form.code, { apiKey: null, token, json: {} }),
        send(target.url, form.code, { apiKey: 'wrong', token, json: {} }),
        send(target.url, form.code, { apiKey: target.apiKey, authorization: 'Basic abc', json: {} }),
        send(target.url, form.code, { apiKey: target.apiKey, token: `${token}x`, json: {} }),
      ];
      expect(await statuses(failures)).toEqual([401, 403, 401, 403]);
      await expectRateLimited(await send(target.url, form.code, { apiKey: null, json: {} }), 4);
      await expectRateLimited(await send(target.url, form.code, { apiKey: target.apiKey, token: 'bad', json: {} }), 4);
      // A site backend behind the same egress address is not locked out by someone else's guesses.
      expect((await submit(target, form, token)).status).toBe(201);
      expect((await submit(target, form, token)).status).toBe(201);
      await expectRateLimited(await send(target.url, form.code, { apiKey: 'wrong', token, json: {} }), 4);
    });

    it('parallel failures past the limit are all refused with 429, none with their own code', async () => {
      const target = await gateway({ authFailuresPerMinute: 3 });
      const { form } = await siteAndForm();
      const answered = await statuses(
        Array.from({ length: 12 }, () => send(target.url, form.code, { apiKey: null, json: {} })),
      );
      expect({ ok: count(answered, 401), limited: count(answered, 429) }).toEqual({ ok: 3, limited: 9 });
    });

    it('does not count other refusals nor accepted submissions', async () => {
      const target = await gateway({ authFailuresPerMinute: 2 });
      const { form, token } = await siteAndForm();
      for (let i = 0; i < 4; i++) {
        expect((await send(target.url, 'no-such-form', { apiKey: target.apiKey, token, json: {} })).status).toBe(403);
        expect((await submit(target, form, token)).status).toBe(201);
      }
      expect((await send(target.url, form.code, { apiKey: null, json: {} })).status).toBe(401);
      expect((await submit(target, form, token)).status).toBe(201);
    });

    it('ignores X-Forwarded-For without TRUST_PROXY: changing it does not escape the limit', async () => {
      const target = await gateway({ authFailuresPerMinute: 2, trustProxy: false });
      const { form } = await siteAndForm();
      for (const address of ['10.0.0.1', '10.0.0.2']) {
        const failed = await send(target.url, form.code, {
          apiKey: null,
          json: {},
          headers: { 'X-Forwarded-For': address },
        });
        expect(failed.status).toBe(401);
      }
      const next = await send(target.url, form.code, {
        apiKey: null,
        json: {},
        headers: { 'X-Forwarded-For': '10.0.0.3' },
      });
      await expectRateLimited(next, 2);
    });

    it('with TRUST_PROXY=true, counts the address the proxy appended, whatever the client wrote left of it', async () => {
      const target = await gateway({ authFailuresPerMinute: 2, trustProxy: true });
      const { form, token } = await siteAndForm();
      // The client writes a fresh X-Forwarded-For each time; the one proxy in front appends 10.0.0.1.
      const fromClient = (spoofed: string) =>
        send(target.url, form.code, { apiKey: null, json: {}, headers: { 'X-Forwarded-For': `${spoofed}, 10.0.0.1` } });
      expect((await fromClient('198.51.100.1')).status).toBe(401);
      expect((await fromClient('198.51.100.2')).status).toBe(401);
      await expectRateLimited(await fromClient('198.51.100.3'), 2);
      await expectRateLimited(await fromClient('10.0.0.2'), 2);
      // Another client behind the proxy has its own count.
      const other = await send(target.url, form.code, {
        apiKey: null,
        json: {},
        headers: { 'X-Forwarded-For': '10.0.0.1, 10.0.0.2' },
      });
      expect(other.status).toBe(401);
      expect((await submit(target, form, token, { 'X-Forwarded-For': '10.0.0.1' })).status).toBe(201);
    });

    it('with TRUST_PROXY_HOPS=2, the client is the second entry from the right', async () => {
      const target = await gateway({ authFailuresPerMinute: 2, trustProxy: true, trustProxyHops: 2 });
      const { form } = await siteAndForm();
      const throughTwoProxies = (spoofed: string, edge: string) =>
        send(target.url, form.code, {
          apiKey: null,
          json: {},
          headers: { 'X-Forwarded-For': `${spoofed}, 10.0.0.1, ${edge}` },
        });
      expect((await throughTwoProxies('198.51.100.1', '172.16.0.1')).status).toBe(401);
      expect((await throughTwoProxies('198.51.100.2', '172.16.0.2')).status).toBe(401);
      await expectRateLimited(await throughTwoProxies('198.51.100.3', '172.16.0.1'), 2);
    });
  });

  it('reports the in-memory store in /readyz', async () => {
    const target = await gateway({ submissionsPerMinute: 5 });
    const ready = await fetch(`${target.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.rateLimits).toBe('memory');
  });

  describeWithRedis(redisMissing, 'in Redis', () => {
    const prefixes: string[] = [];
    const redisLimits = (limits: Partial<RateLimitConfig>): Partial<RateLimitConfig> => {
      const redisKeyPrefix = testRedisPrefix();
      prefixes.push(redisKeyPrefix);
      return { redisUrl: TEST_REDIS_URL, redisKeyPrefix, ...limits };
    };

    afterAll(async () => {
      await Promise.all(prefixes.map((prefix) => dropRedisKeys(TEST_REDIS_URL, prefix)));
    });

    it('shares the per-site limit between two gateways, and says redis in /readyz', async () => {
      const limits = redisLimits({ submissionsPerMinute: 4 });
      const [first, second] = [await gateway(limits), await gateway(limits)];
      const { form, token } = await siteAndForm();
      const answered = await statuses(
        Array.from({ length: 10 }, (_, i) => submit(i % 2 === 0 ? first : second, form, token)),
      );
      expect({ accepted: count(answered, 201), limited: count(answered, 429) }).toEqual({ accepted: 4, limited: 6 });
      for (const target of [first, second]) {
        const ready = (await (await fetch(`${target.url}/readyz`)).json()) as { checks: Record<string, string> };
        expect(ready.checks.rateLimits).toBe('redis');
      }
    });

    it('shares failed authentications: failures at one gateway limit the address at the other, until the window ends', async () => {
      const limits = redisLimits({ authFailuresPerMinute: 3 });
      const [first, second] = [await gateway(limits), await gateway(limits)];
      const { form, token } = await siteAndForm();
      for (let i = 0; i < 3; i++) {
        expect((await send(first.url, form.code, { apiKey: null, json: {} })).status).toBe(401);
      }
      await expectRateLimited(await send(second.url, form.code, { apiKey: null, json: {} }), 3);
      expect((await submit(second, form, token)).status).toBe(201);
      // Let the window end now instead of in a minute: the block must go with it.
      await withRedis(TEST_REDIS_URL, async (redis) => {
        const keys = await redis.keys(`${limits.redisKeyPrefix}:*auth-failures*`);
        expect(keys).toHaveLength(1);
        await redis.pexpire(keys[0]!, 1);
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await send(second.url, form.code, { apiKey: null, json: {} })).status).toBe(401);
    });

    it('keeps its keys under REDIS_KEY_PREFIX', async () => {
      const limits = redisLimits({ submissionsPerMinute: 10 });
      const target = await gateway(limits);
      const { site, form, token } = await siteAndForm();
      expect((await submit(target, form, token)).status).toBe(201);
      const keys = await withRedis(TEST_REDIS_URL, (redis) => redis.keys(`${limits.redisKeyPrefix}:*`));
      expect(keys).toEqual([`${limits.redisKeyPrefix}:rate-limit:submissions:${site.id}`]);
    });
  });

  describe('Redis unavailable', () => {
    it('starts with Redis down: limits in memory, one log line, /readyz 200 saying so', async () => {
      const captured = capturedLogger();
      const target = await gateway(
        { submissionsPerMinute: 2, redisUrl: 'redis://127.0.0.1:1', redisKeyPrefix: testRedisPrefix() },
        captured.logger,
      );
      const { form, token } = await siteAndForm();
      const started = Date.now();
      const answered = await statuses(Array.from({ length: 4 }, () => submit(target, form, token)));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect({ accepted: count(answered, 201), limited: count(answered, 429) }).toEqual({ accepted: 2, limited: 2 });
      const ready = await fetch(`${target.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks.rateLimits).toBe(
        'memory (redis unavailable)',
      );
      const fallbacks = captured.lines.filter((line) => String(line.msg).includes('redis unavailable'));
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]).toEqual(expect.objectContaining({ level: 40 }));
    });

    describeWithRedis(scratchRedisMissing, 'when Redis stops and comes back', () => {
      it('goes on in memory while it is down, logs the outage and the recovery once each', async () => {
        const redis = await scratchRedis();
        await redis.start();
        const captured = capturedLogger();
        try {
          const target = await gateway(
            { submissionsPerMinute: 50, redisUrl: redis.url, redisKeyPrefix: testRedisPrefix() },
            captured.logger,
          );
          const { form, token } = await siteAndForm();
          const readiness = async () =>
            ((await (await fetch(`${target.url}/readyz`)).json()) as { checks: Record<string, string> }).checks
              .rateLimits;
          expect(await readiness()).toBe('redis');
          expect((await submit(target, form, token)).status).toBe(201);

          await redis.stop();
          const answered = await statuses(Array.from({ length: 5 }, () => submit(target, form, token)));
          expect(answered).toEqual(Array(5).fill(201));
          expect(await readiness()).toBe('memory (redis unavailable)');

          await redis.start();
          const deadline = Date.now() + 10_000;
          while ((await readiness()) !== 'redis' && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(await readiness()).toBe('redis');
          expect((await submit(target, form, token)).status).toBe(201);
          const messages = captured.messages().filter((msg) => String(msg).startsWith('rate limits:'));
          expect(messages).toEqual([
            'rate limits: redis unavailable, counting in this process only',
            'rate limits: redis is back, counting in redis again',
          ]);
        } finally {
          await redis.stop();
        }
      });
    });
  });
});
