// Anyone may call the single sign-on callback. Each call that reaches it is an audit entry, and each
// entry takes the audit chain's lock, so the callback counts against the caller's address under the
// sign-in limit before it writes anything: past the limit, nothing is written.
import { jest } from '@jest/globals';
import { AuditEntrySchema, AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { LOGIN_MAX_PER_ADDRESS } from '../../access/login-policy.js';
import { startTestAdmin, type TestAdmin } from '../../test/harness.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import { Browser, refusalOf, signedInAs, ssoAttempt } from '../../test/sso-browser.js';

jest.setTimeout(180_000);

const FLOODER = '203.0.113.7';
const COLLEAGUE = '198.51.100.2';

describe(`the single sign-on callback under a flood, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  let intake: TestAdmin;

  const from = (address: string) => new Browser({ [new URL(intake.url).origin]: { 'x-forwarded-for': address } });
  const loginEntries = () => intake.services.db.em.fork().count(AuditEntrySchema, { action: 'login' });

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    intake = await startTestAdmin({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      TRUST_PROXY: 'true',
    });
    provider.allowRedirect(`${intake.url}/auth/oidc/callback`);
    const em = intake.services.db.em.fork();
    em.create(AdminUserSchema, {
      email: 'cole@example.com',
      name: 'Cole',
      role: 'member',
      status: 'active',
      passwordHash: await hashPassword('a long member password 1'),
    });
    await em.flush();
  }, 90_000);

  afterAll(async () => {
    await intake?.close();
    await provider?.close();
  }, 30_000);

  it('writes no audit entry for callbacks past the address limit, and lets other addresses sign in', async () => {
    const before = await loginEntries();
    const flooder = from(FLOODER);
    const extra = 50;
    const reasons = new Map<string | null, number>();
    for (let call = 0; call < LOGIN_MAX_PER_ADDRESS + extra; call += 1) {
      const answer = await flooder.get(`${intake.url}/auth/oidc/callback?code=c${call}&state=s${call}`);
      const reason = refusalOf(answer, intake.url);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    expect(Object.fromEntries(reasons)).toEqual({
      sso_state_mismatch: LOGIN_MAX_PER_ADDRESS,
      sso_rate_limited: extra,
    });
    expect((await loginEntries()) - before).toBe(LOGIN_MAX_PER_ADDRESS);

    // The same limit as passwords: the flooding address is refused a password sign-in too.
    const login = await fetch(`${intake.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': FLOODER },
      body: JSON.stringify({
        query: 'mutation { login(email: "cole@example.com", password: "a long member password 1") { token } }',
      }),
    });
    const body = (await login.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');

    // Someone at another address signs in through the provider as usual.
    const { answer, browser } = await ssoAttempt(
      provider,
      intake.url,
      ['cole', { email: 'cole@example.com', email_verified: true }],
      { browser: from(COLLEAGUE) },
    );
    expect(answer.status).toBe(200);
    expect(await signedInAs(intake.url, browser)).toEqual({ email: 'cole@example.com', role: 'member' });
  });
});
