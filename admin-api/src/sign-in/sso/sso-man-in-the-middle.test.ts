// A man in the middle between Intake and its OpenID provider on plain http (allowed on a loopback
// address only, where no TLS stands in): the test provider's forwarding proxy rewrites its answers
// on their way to Intake. What docs/single-sign-on.md says such an attacker can and cannot do.
import { jest } from '@jest/globals';
import { AdminSessionSchema, AdminUserSchema, AuditEntrySchema } from '@intake/shared/entities';
import { createLogger } from '@intake/shared/logger';
import { hashPassword } from '@intake/shared/password';
import { createTestServices, testConfig, testDriverName } from '@intake/shared/test';
import { ensureAdmin, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServices } from '../../test/harness.js';
import { startAdmin, type AdminServer } from '../../server.js';
import { attackerKey, decodeJwt, forgeIdToken, type Forgery } from '../../test/forged-id-token.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import { Browser, refusalOf, signedInAs, ssoAttempt } from '../../test/sso-browser.js';

jest.setTimeout(120_000);

const VICTIM = 'victim@example.com';
const MALLORY = 'mallory@example.com';

describe(`single sign-on against a man in the middle on plain http, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  const started: { server: AdminServer; services: TestServices }[] = [];
  let intake: AdminServer;
  let services: TestServices;
  let victimId: string;
  const logged: string[] = [];

  async function startIntake() {
    const made = await createTestServices({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOWED_DOMAINS: 'example.com',
    });
    await ensureAdmin(made);
    const logger = createLogger('info', {}, { write: (line: string) => void logged.push(line) });
    const server = await startAdmin({ ...made, logger });
    started.push({ server, services: made });
    provider.allowRedirect(`${server.url}/auth/oidc/callback`);
    return { server, services: made };
  }

  async function addMember(into: TestServices, email: string, role: 'owner' | 'member'): Promise<string> {
    const em = into.db.em.fork();
    const member = em.create(AdminUserSchema, {
      email,
      name: email.split('@')[0]!,
      role,
      status: 'active',
      passwordHash: await hashPassword('a long member password 1'),
    });
    await em.flush();
    return member.id;
  }

  async function lastLoginEntry() {
    const [entry] = await services.db.em
      .fork()
      .find(AuditEntrySchema, { action: 'login' }, { orderBy: { seq: 'desc' }, limit: 1 });
    return entry;
  }

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    ({ server: intake, services } = await startIntake());
    victimId = await addMember(services, VICTIM, 'owner');
    await addMember(services, MALLORY, 'member');
  }, 90_000);

  afterEach(() => provider.interceptAnswers(null));

  afterAll(async () => {
    for (const each of started) {
      await each.server.close();
      await each.services.close();
    }
    await provider?.close();
  }, 30_000);

  const forgeries: [string, () => Forgery][] = [
    [
      "re-signed with another key under the provider's key id",
      () => ({ key: attackerKey('x').privateKey, kid: provider.signingKeyId }),
    ],
    [
      're-signed with a key id the provider does not have',
      () => ({ key: attackerKey('x').privateKey, kid: 'attacker-key' }),
    ],
    [
      "naming another member's e-mail, verified, re-signed under the provider's key id",
      () => ({
        key: attackerKey('x').privateKey,
        kid: provider.signingKeyId,
        claims: { email: VICTIM, email_verified: true },
      }),
    ],
    ['with no signature at all (alg none)', () => ({ key: null, claims: { email: VICTIM, email_verified: true } })],
  ];

  it.each(forgeries)('refuses an ID token %s: nobody is signed in, and the refusal is audited', async (_, forgery) => {
    const made = forgery();
    let rewritten = 0;
    provider.interceptAnswers({
      token(body) {
        rewritten += 1;
        return { ...body, id_token: forgeIdToken(String(body.id_token), made) };
      },
    });
    const sessionsBefore = await services.db.em.fork().count(AdminSessionSchema, {});
    const { answer, browser } = await ssoAttempt(provider, intake.url, [
      'mallory',
      { email: MALLORY, email_verified: true },
    ]);
    expect(rewritten).toBe(1);
    expect(refusalOf(answer, intake.url)).toBe('sso_token_invalid');
    expect(await signedInAs(intake.url, browser)).toBeNull();
    expect(await services.db.em.fork().count(AdminSessionSchema, {})).toBe(sessionsBefore);
    expect(await lastLoginEntry()).toMatchObject({
      outcome: 'failure',
      errorCode: 'sso_token_invalid',
      actorId: null,
      details: { method: 'oidc' },
    });
  });

  it("signs in with the provider's own ID token through the same proxy when nothing is changed", async () => {
    let seen = 0;
    provider.interceptAnswers({
      token(body) {
        seen += 1;
        expect(decodeJwt(String(body.id_token)).header.kid).toBe(provider.signingKeyId);
        return body;
      },
    });
    const { answer, browser } = await ssoAttempt(provider, intake.url, [
      'mallory',
      { email: MALLORY, email_verified: true },
    ]);
    expect(seen).toBe(1);
    expect(answer.status).toBe(200);
    expect(await signedInAs(intake.url, browser)).toEqual({ email: MALLORY, role: 'member' });
  });

  it('on plain http, reads the e-mail only from the signed ID token: a changed userinfo answer names nobody', async () => {
    let rewritten = 0;
    provider.interceptAnswers({
      userinfo(body) {
        rewritten += 1;
        return { ...body, email: VICTIM, email_verified: true };
      },
    });
    // The provider's ID token carries no e-mail; its userinfo answer would (changed on the way).
    const { answer, browser } = await ssoAttempt(provider, intake.url, [
      'mallory',
      { email: MALLORY, email_verified: true, idToken: {} },
    ]);
    expect(refusalOf(answer, intake.url)).toBe('sso_email_unverified');
    expect(await signedInAs(intake.url, browser)).toBeNull();
    expect(rewritten).toBe(0);
    expect(await services.db.em.fork().count(AdminSessionSchema, { admin: victimId })).toBe(0);
  });

  it('has no use for a code it saw on the way: the callback needs the flow cookie of the browser that started', async () => {
    let stolen: Response | undefined;
    const { answer, browser } = await ssoAttempt(
      provider,
      intake.url,
      ['mallory', { email: MALLORY, email_verified: true }],
      {
        beforeCallback: async (callbackUrl) => {
          stolen = await new Browser().get(callbackUrl);
        },
      },
    );
    expect(refusalOf(stolen!, intake.url)).toBe('sso_state_mismatch');
    // Refused before the code was redeemed: the browser that started still signs in with it.
    expect(answer.status).toBe(200);
    expect(await signedInAs(intake.url, browser)).toEqual({ email: MALLORY, role: 'member' });
  });

  it("cannot be stopped once it also replaces the provider's keys, which is why plain http is refused off loopback", async () => {
    // A new Intake, which fetches the provider's keys for the first time through the attacker.
    const fresh = await startIntake();
    await addMember(fresh.services, VICTIM, 'owner');
    const forged = attackerKey(provider.signingKeyId);
    provider.interceptAnswers({
      jwks: () => ({ keys: [forged.publicJwk] }),
      token: (body) => ({
        ...body,
        id_token: forgeIdToken(String(body.id_token), {
          key: forged.privateKey,
          kid: provider.signingKeyId,
          claims: { email: VICTIM, email_verified: true },
        }),
      }),
    });
    const { answer, browser } = await ssoAttempt(provider, fresh.server.url, [
      'mallory',
      { email: MALLORY, email_verified: true },
    ]);
    expect(answer.status).toBe(200);
    expect(await signedInAs(fresh.server.url, browser)).toEqual({ email: VICTIM, role: 'owner' });
    // The configuration takes plain http for a provider on this machine only.
    for (const issuer of [
      'http://127.0.0.1:8080',
      'http://127.9.9.9/realms/x',
      'http://localhost:8080',
      'http://[::1]:8080',
    ]) {
      expect(testConfig({ OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'intake' }).oidc?.issuerUrl).toBe(issuer);
    }
    for (const issuer of [
      'http://idp.example.com',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'http://10.0.0.5',
    ]) {
      expect(() => testConfig({ OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'intake' })).toThrow(/OIDC_ISSUER_URL/);
    }
  });

  it('leaves no token or code of the provider in a log line', () => {
    const text = logged.join('\n');
    expect(text).not.toContain(provider.clientSecret);
    expect(text).not.toMatch(/"(code|id_token|access_token|code_verifier)"/);
  });
});
