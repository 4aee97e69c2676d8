// With REDIS_URL, every admin process counts login attempts in Redis: guesses spread over two admin
// servers meet one limit, not one per process.
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import {
  TEST_REDIS_URL,
  describeWithRedis,
  dropRedisKeys,
  redisUnreachable,
  testDriverName,
  testRedisPrefix,
  withRedis,
} from '@intake/shared/test';
import { startAdmin, type AdminServer } from '../../server.js';
import { codes, graphqlRequest, startTestAdmin, type TestAdmin } from '../../test/harness.js';
import { LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS } from '../../access/login-policy.js';

const redisMissing = await redisUnreachable();
const redisKeyPrefix = testRedisPrefix();

describeWithRedis(redisMissing, `admin login limiter in Redis on ${testDriverName()}`, () => {
  let first: TestAdmin;
  let second: AdminServer;

  beforeAll(async () => {
    first = await startTestAdmin({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redisKeyPrefix });
    // A second admin process: same database, same Redis.
    second = await startAdmin(first.services);
    const em = first.services.db.em.fork();
    em.create(AdminUserSchema, {
      email: 'victim@example.com',
      passwordHash: await hashPassword('the victim password'),
    });
    await em.flush();
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await dropRedisKeys(TEST_REDIS_URL, redisKeyPrefix);
  }, 30_000);

  const login = (url: string, password: string) =>
    graphqlRequest(url, 'mutation($p: String!) { login(email: "victim@example.com", password: $p) { token } }', {
      p: password,
    });

  it('refuses the next guess on either server once both together reached the limit', async () => {
    for (let attempt = 0; attempt < LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS; attempt += 1) {
      const server = attempt % 2 === 0 ? first.url : second.url;
      expect(codes(await login(server, `guess ${attempt}`))).toEqual(['UNAUTHENTICATED']);
    }
    for (const server of [first.url, second.url]) {
      const limited = await login(server, 'the victim password');
      expect(limited.status).toBe(429);
      expect(codes(limited)).toEqual(['RATE_LIMITED']);
    }
    // The counts are in Redis under REDIS_KEY_PREFIX, and the key does not hold the e-mail in clear.
    const keys = await withRedis(TEST_REDIS_URL, (redis) => redis.keys(`${redisKeyPrefix}:*`));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => /victim|127\.0\.0\.1|::1/.test(key))).toEqual([]);
  });
});
