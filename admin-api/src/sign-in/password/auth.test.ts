import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { jest } from '@jest/globals';
import { AdminUserSchema, ApiTokenSchema } from '@intake/shared/entities';
import { dummyPasswordHash, hashPassword, PASSWORD_HASH_PARAMS, useCheapPasswordHashes } from '@intake/shared/password';
import { CHEAP_PASSWORD_HASH_PARAMS, createTestServices, testDriverName } from '@intake/shared/test';
import jwt from 'jsonwebtoken';
import { startAdmin } from '../../server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, codes, startTestAdmin, type TestAdmin, ensureAdmin } from '../../test/harness.js';
import { createAdminTokens } from '../../access/admin-token.js';

const ME = 'query { me { id email createdAt passwordChangedAt } }';
const SITES = 'query { sites { id } }';

// Real servers and password hashing: slower than the default 5 s on a busy machine.
jest.setTimeout(30_000);

describe(`admin authentication on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;

  async function makeAdmin(email: string, password: string): Promise<void> {
    const em = admin.services.db.em.fork();
    em.create(AdminUserSchema, { email, passwordHash: await hashPassword(password) });
    await em.flush();
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  describe('bootstrap and transport', () => {
    it('creates the configured admin once, and a race of two starts creates one row', async () => {
      expect(await ensureAdmin(admin.services)).toBe('exists');
      // Another ADMIN_EMAIL on a team that has members: nobody is made (first-owner.test.ts).
      const other = {
        ...admin.services,
        config: { ...admin.services.config, admin: { email: 'Race@Example.com', password: 'a long enough password' } },
      };
      expect(await ensureAdmin(other)).toBe('members-exist');
      const empty = await createTestServices({
        ADMIN_EMAIL: 'Race@Example.com',
        ADMIN_PASSWORD: 'a long enough password',
      });
      try {
        const results = await Promise.all([ensureAdmin(empty), ensureAdmin(empty)]);
        expect([...results].sort()).toEqual(['created', 'exists']);
        expect(await empty.db.em.fork().count(AdminUserSchema, { email: 'race@example.com' })).toBe(1);
      } finally {
        await empty.close();
      }
      const unset = { ...admin.services, config: { ...admin.services.config, admin: undefined } };
      expect(await ensureAdmin(unset)).toBe('not-configured');
    }, 60_000);

    it('logs exactly one listening line with its origin and closes cleanly', async () => {
      const logger = admin.services.logger.child({});
      const info = jest.spyOn(logger, 'info');
      const second = await startAdmin({ ...admin.services, logger });
      try {
        expect(second.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const listening = info.mock.calls.filter((call) => call[1] === 'listening');
        expect(listening).toEqual([[{ service: 'admin', url: second.url }, 'listening']]);
        const health = await fetch(`${second.url}/healthz`);
        expect(health.status).toBe(200);
      } finally {
        await second.close();
      }
      await expect(fetch(`${second.url}/healthz`)).rejects.toThrow();
    });

    it('answers /healthz and /readyz', async () => {
      const health = await fetch(`${admin.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${admin.url}/readyz`);
      expect(ready.status).toBe(200);
    });

    it('refuses malformed, oversized and non-JSON bodies, and GET', async () => {
      const malformed = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":',
      });
      expect(malformed.status).toBe(400);
      const large = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1024 * 1024 + 10) }),
      });
      expect(large.status).toBe(413);
      const text = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{ sites { id } }',
      });
      expect(text.status).toBe(400);
      const get = await fetch(`${admin.url}/graphql?query=%7B__typename%7D`);
      expect(get.status).toBe(405);
      // The server still answers.
      expect((await admin.gql(SITES, {}, token)).status).toBe(200);
    });
  });

  describe('login', () => {
    it('returns a token that authenticates; me is the admin', async () => {
      const result = await admin.gql<{ me: { email: string } }>(ME, {}, token);
      expect(result.errors).toBeUndefined();
      expect(result.data?.me.email).toBe(ADMIN_EMAIL);
      // E-mail addresses are compared case-insensitively.
      await expect(admin.login(` ${ADMIN_EMAIL.toUpperCase()} `)).resolves.toEqual(expect.any(String));
    });

    it('fails with the same UNAUTHENTICATED answer for a wrong password and an unknown e-mail', async () => {
      const login = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
      const wrong = await admin.gql(login, { e: ADMIN_EMAIL, p: 'not the password' });
      const unknown = await admin.gql(login, { e: 'nobody@example.com', p: ADMIN_PASSWORD });
      for (const result of [wrong, unknown]) {
        expect(result.status).toBe(401);
        expect(codes(result)).toEqual(['UNAUTHENTICATED']);
        expect(result.errors?.[0]?.message).toBe('Invalid e-mail or password');
      }
    });

    describe("with the product's hashing (the other tests hash cheaply: jest.preset.js)", () => {
      beforeAll(() => useCheapPasswordHashes(null));
      afterAll(() => useCheapPasswordHashes(CHEAP_PASSWORD_HASH_PARAMS));

      it('hashes with scrypt N=2^17, r=8, p=1, and so does the dummy hash of unknown e-mails', async () => {
        expect(PASSWORD_HASH_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
        expect(await hashPassword('x')).toMatch(/^scrypt\$131072\$8\$1\$/);
        expect(await dummyPasswordHash()).toMatch(/^scrypt\$131072\$8\$1\$/);
      });

      it('re-hashes a hash with older parameters at a good login, transparently', async () => {
        // A hash as earlier versions stored it: scrypt N=2^15.
        const salt = randomBytes(16);
        const key = scryptSync('an old password here', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
        const legacy = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
        const em = admin.services.db.em.fork();
        em.create(AdminUserSchema, { email: 'legacy@example.com', passwordHash: legacy });
        await em.flush();
        const storedHash = async () =>
          (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { email: 'legacy@example.com' }))
            .passwordHash;

        const wrong = await admin.gql('mutation { login(email: "legacy@example.com", password: "nope") { token } }');
        expect(codes(wrong)).toEqual(['UNAUTHENTICATED']);
        expect(await storedHash()).toBe(legacy);

        const first = await admin.login('legacy@example.com', 'an old password here');
        const rehashed = await storedHash();
        expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
        expect((await admin.gql(ME, {}, first)).data?.me.email).toBe('legacy@example.com');
        await expect(admin.login('legacy@example.com', 'an old password here')).resolves.toEqual(expect.any(String));
        expect(await storedHash()).toBe(rehashed);
      });
    });

    it('stops guessing after 10 failures for one e-mail and address, even with the right password', async () => {
      await makeAdmin('victim@example.com', 'the victim password');
      const login = 'mutation($p: String!) { login(email: "victim@example.com", password: $p) { token } }';
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect(codes(await admin.gql(login, { p: `guess ${attempt}` }))).toEqual(['UNAUTHENTICATED']);
      }
      const limited = await admin.gql(login, { p: 'the victim password' });
      expect(limited.status).toBe(429);
      expect(codes(limited)).toEqual(['RATE_LIMITED']);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.errors?.[0]?.message).not.toMatch(/victim/);
      // Another account from the same address is not locked out.
      await expect(admin.login()).resolves.toEqual(expect.any(String));
    });
  });

  describe('bearer tokens', () => {
    it('refuses every operation but login without a valid token, with HTTP 401', async () => {
      const adminId = (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { email: ADMIN_EMAIL })).id;
      const config = admin.services.config;
      const expired = createAdminTokens({ jwtSecret: config.jwtSecret, adminTokenTtlSeconds: 1 }).issue(
        adminId,
        (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { id: adminId })).passwordChangedAt,
        new Date(Date.now() - 60_000),
      ).token;
      // Right claims, but signed with JWT_SECRET itself instead of the derived admin key.
      const underived = jwt.sign({ pwv: 0 }, config.jwtSecret, {
        algorithm: 'HS256',
        subject: adminId,
        audience: 'intake-admin',
        expiresIn: 600,
      });
      const siteToken = admin.services.siteTokens.issue(adminId, 'x'.repeat(43));
      const cases: [string, string | undefined][] = [
        ['no token', undefined],
        ['garbage', 'not-a-token'],
        ['expired', expired],
        ['not derived', underived],
        ['site token', siteToken],
        ['unknown api token', `itk_${'A'.repeat(43)}`],
      ];
      for (const [label, bearer] of cases) {
        for (const query of [
          SITES,
          ME,
          '{ __typename }',
          '{ __schema { queryType { name } } }',
          'mutation { createSite(input: { name: "x" }) { id } }',
        ]) {
          const result = await admin.gql(query, {}, bearer);
          expect({ label, query, status: result.status, codes: codes(result), data: result.data ?? null }).toEqual({
            label,
            query,
            status: 401,
            codes: ['UNAUTHENTICATED'],
            data: null,
          });
        }
      }
      const basic = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${token}` },
        body: JSON.stringify({ query: SITES }),
      });
      expect(basic.status).toBe(401);
    });

    it('changePassword checks both passwords, ends older tokens and returns a working one', async () => {
      await makeAdmin('changer@example.com', 'first password 123');
      const old = await admin.login('changer@example.com', 'first password 123');
      const change =
        'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { token expiresAt } }';

      const wrongCurrent = await admin.gql(change, { c: 'nope', n: 'second password 456' }, old);
      expect(codes(wrongCurrent)).toEqual(['BAD_USER_INPUT']);
      expect(wrongCurrent.errors?.[0]?.extensions?.field).toBe('currentPassword');
      const tooShort = await admin.gql(change, { c: 'first password 123', n: 'short' }, old);
      expect(codes(tooShort)).toEqual(['BAD_USER_INPUT']);
      expect(tooShort.errors?.[0]?.message).toMatch(/newPassword/);

      const changed = await admin.gql<{ changePassword: { token: string } }>(
        change,
        { c: 'first password 123', n: 'second password 456' },
        old,
      );
      expect(changed.errors).toBeUndefined();
      const fresh = changed.data!.changePassword.token;

      const withOld = await admin.gql(ME, {}, old);
      expect(withOld.status).toBe(401);
      expect(codes(withOld)).toEqual(['UNAUTHENTICATED']);
      expect((await admin.gql<{ me: { email: string } }>(ME, {}, fresh)).data?.me.email).toBe('changer@example.com');
      await expect(admin.login('changer@example.com', 'first password 123')).rejects.toThrow(/login failed/);
      await expect(admin.login('changer@example.com', 'second password 456')).resolves.toEqual(expect.any(String));
    });

    it('a token of a deleted admin stops working', async () => {
      await makeAdmin('leaver@example.com', 'leaver password 789');
      const leaverToken = await admin.login('leaver@example.com', 'leaver password 789');
      await admin.services.db.em.fork().nativeDelete(AdminUserSchema, { email: 'leaver@example.com' });
      expect(codes(await admin.gql(SITES, {}, leaverToken))).toEqual(['UNAUTHENTICATED']);
    });
  });

  describe('API tokens', () => {
    const CREATE =
      'mutation($n: String!) { createApiToken(name: $n) { token apiToken { id name createdAt lastUsedAt } } }';
    const LIST = 'query { apiTokens { id name createdAt lastUsedAt } }';

    it('shows the secret once, stores only its sha256, authenticates, records use, and stops at revocation', async () => {
      const created = await admin.gql<{
        createApiToken: { token: string; apiToken: { id: string; name: string; lastUsedAt: string | null } };
      }>(CREATE, { n: 'CI export' }, token);
      expect(created.errors).toBeUndefined();
      const { token: secret, apiToken } = created.data!.createApiToken;
      expect(secret).toMatch(/^itk_[A-Za-z0-9_-]{43}$/);
      expect(apiToken).toEqual({
        id: expect.any(String),
        name: 'CI export',
        createdAt: expect.any(String),
        lastUsedAt: null,
      });

      const row = await admin.services.db.em.fork().findOneOrFail(ApiTokenSchema, { id: apiToken.id });
      expect(row.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(secret);

      // Works like an admin token, and acts for the admin who created it.
      expect((await admin.gql(SITES, {}, secret)).errors).toBeUndefined();
      expect((await admin.gql<{ me: { email: string } }>(ME, {}, secret)).data?.me.email).toBe(ADMIN_EMAIL);
      const listed = await admin.gql<{ apiTokens: { id: string; lastUsedAt: string | null }[] }>(LIST, {}, secret);
      const mine = listed.data?.apiTokens.find((entry) => entry.id === apiToken.id);
      expect(mine?.lastUsedAt).toEqual(expect.any(String));
      expect(JSON.stringify(listed.data)).not.toContain(secret);

      // Account operations need a login.
      expect(codes(await admin.gql(CREATE, { n: 'more' }, secret))).toEqual(['FORBIDDEN']);
      expect(
        codes(
          await admin.gql(
            'mutation { changePassword(currentPassword: "a", newPassword: "bbbbbbbbbbbbbbbb") { token } }',
            {},
            secret,
          ),
        ),
      ).toEqual(['FORBIDDEN']);

      const revoke = 'mutation($id: ID!) { revokeApiToken(id: $id) }';
      expect(
        (await admin.gql<{ revokeApiToken: boolean }>(revoke, { id: apiToken.id }, token)).data?.revokeApiToken,
      ).toBe(true);
      expect(
        (await admin.gql<{ revokeApiToken: boolean }>(revoke, { id: apiToken.id }, token)).data?.revokeApiToken,
      ).toBe(false);
      const revoked = await admin.gql(SITES, {}, secret);
      expect(revoked.status).toBe(401);
      expect(codes(revoked)).toEqual(['UNAUTHENTICATED']);
      const after = await admin.gql<{ apiTokens: { id: string }[] }>(LIST, {}, token);
      expect(after.data?.apiTokens.map((entry) => entry.id)).not.toContain(apiToken.id);
    });

    it('validates the name and the id', async () => {
      const empty = await admin.gql(CREATE, { n: '' }, token);
      expect(codes(empty)).toEqual(['BAD_USER_INPUT']);
      expect(empty.errors?.[0]?.message).toMatch(/^name /);
      expect(codes(await admin.gql('mutation { revokeApiToken(id: "nope") }', {}, token))).toEqual(['BAD_USER_INPUT']);
    });
  });
});
