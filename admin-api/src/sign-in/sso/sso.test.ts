// Single sign-on against a real OpenID provider (oidc-provider) on loopback, driven over real HTTP
// as a browser would: Intake's start route, the provider's authorization endpoint and its (auto-
// approving) login and consent steps, then Intake's callback with the code. Every refusal is a
// redirect to the sign-in page with its reason, an audit entry, and no secret in any log line.
import { hashInvitationToken } from '@intake/shared/delivery';
import { findInvitation, ensureAdmin, ADMIN_EMAIL, ADMIN_PASSWORD, codes } from '../../test/harness.js';
import { jest } from '@jest/globals';
import { AdminUserSchema, AuditEntrySchema, type MemberRole, type MemberStatus } from '@intake/shared/entities';
import { createLogger } from '@intake/shared/logger';
import { hashPassword } from '@intake/shared/password';
import { createTestServices, graphqlRequest, reconfiguredTestServices, testDriverName } from '@intake/shared/test';
import { startAdmin, type AdminServer } from '../../server.js';
import { startTestOidcProvider, type TestAccount, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import {
  Browser,
  SESSION_COOKIE,
  continuedTo,
  locationOf,
  refusalOf,
  signedInAs,
  ssoAttempt,
  type SsoAttempt,
} from '../../test/sso-browser.js';

jest.setTimeout(120_000);

const MEMBER_PASSWORD = 'a long member password 1';

describe(`single sign-on with OpenID Connect on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  const logged: string[] = [];
  const admins: { server: AdminServer; services: Awaited<ReturnType<typeof createTestServices>> }[] = [];
  let refusing: AdminServer;
  let welcoming: AdminServer;
  let refusingServices: Awaited<ReturnType<typeof createTestServices>>;
  let welcomingServices: Awaited<ReturnType<typeof createTestServices>>;

  async function startIntake(newMembers: 'refuse' | 'member') {
    const services = await createTestServices({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_PROVIDER_NAME: 'Example SSO',
      OIDC_ALLOWED_DOMAINS: 'example.com, Example.org',
      OIDC_NEW_MEMBERS: newMembers,
    });
    await ensureAdmin(services);
    const logger = createLogger('info', {}, { write: (line: string) => void logged.push(line) });
    const server = await startAdmin({ ...services, logger });
    admins.push({ server, services });
    provider.allowRedirect(`${server.url}/auth/oidc/callback`);
    return { server, services };
  }

  async function addMember(
    services: Awaited<ReturnType<typeof createTestServices>>,
    email: string,
    role: MemberRole = 'member',
    status: MemberStatus = 'active',
  ): Promise<string> {
    const em = services.db.em.fork();
    const member = em.create(AdminUserSchema, {
      email,
      name: email.split('@')[0]!,
      role,
      status,
      passwordHash: await hashPassword(MEMBER_PASSWORD),
    });
    await em.flush();
    return member.id;
  }

  /** Start → provider (changed by `tamper`) → back at the callback; `answer` is the callback's. */
  async function attempt(
    intake: AdminServer,
    account: [string, TestAccount],
    tamper: (authorizationUrl: URL) => void = () => undefined,
  ): Promise<SsoAttempt> {
    return ssoAttempt(provider, intake.url, account, { tamper });
  }

  function refusal(answer: Response, intake: AdminServer): string | null {
    return refusalOf(answer, intake.url);
  }

  async function me(intake: AdminServer, browser: Browser) {
    return signedInAs(intake.url, browser);
  }

  async function lastSsoEntry(services: Awaited<ReturnType<typeof createTestServices>>) {
    const entries = await services.db.em
      .fork()
      .find(AuditEntrySchema, { action: 'login' }, { orderBy: { at: 'desc' }, limit: 1 });
    return entries[0];
  }

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    ({ server: refusing, services: refusingServices } = await startIntake('refuse'));
    ({ server: welcoming, services: welcomingServices } = await startIntake('member'));
  }, 90_000);

  afterAll(async () => {
    for (const { server, services } of admins) {
      await server.close();
      await services.close();
    }
    await provider?.close();
    // Neither the client secret nor any code or token the provider issued reached a log line.
    const text = logged.join('\n');
    expect(text).not.toContain(provider.clientSecret);
    expect(text).not.toMatch(/"(code|id_token|access_token|code_verifier)"/);
  }, 30_000);

  it('offers the provider on the sign-in page without a token', async () => {
    const result = await graphqlRequest(refusing.url, '{ signInOptions { passwords sso { name startPath } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      signInOptions: { passwords: true, sso: { name: 'Example SSO', startPath: '/auth/oidc/start' } },
    });
    // Only that field is public: the same query with anything else needs a token.
    const mixed = await graphqlRequest(refusing.url, '{ signInOptions { passwords } ssoPolicy { passwordSignIn } }');
    expect(codes(mixed)).toEqual(['UNAUTHENTICATED']);
  });

  it('signs in an active member whose verified e-mail the provider vouches for, with a session and an audit entry', async () => {
    const id = await addMember(refusingServices, 'ada@example.com');
    const { answer, browser } = await attempt(refusing, ['ada', { email: 'Ada@Example.com', email_verified: true }]);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('url=/api-tokens');
    expect(await me(refusing, browser)).toEqual({ email: 'ada@example.com', role: 'member' });
    // The flow cookie is spent with the attempt.
    expect(browser.cookie(refusing.url, 'intake_oidc_flow')).toBeUndefined();
    const entry = await lastSsoEntry(refusingServices);
    expect(entry).toMatchObject({
      actorKind: 'admin',
      actorId: id,
      outcome: 'success',
      objectId: id,
      details: { method: 'oidc' },
    });
  });

  let returning = 0;
  it.each(['/.//evil.example/x', '//evil.example/x', '/%2e//evil.example/x', '/\\evil.example/x', '/sign-in'])(
    'returns to the console, not to %j, after signing in',
    async (next) => {
      returning += 1;
      const email = `nora${returning}@example.com`;
      await addMember(refusingServices, email);
      const { answer } = await ssoAttempt(
        provider,
        refusing.url,
        [`nora${returning}`, { email, email_verified: true }],
        {
          next,
        },
      );
      const target = await continuedTo(answer);
      expect(target).toBe('/sites');
      expect(new URL(target, refusing.url).origin).toBe(refusing.url);
    },
  );

  it('lets an invited member in, which makes them active and their invitation link used', async () => {
    const id = await addMember(refusingServices, 'ivy@example.org', 'member', 'invited');
    const link = 'an-invitation-link-token-for-ivy';
    await refusingServices.db.em
      .fork()
      .nativeUpdate(
        AdminUserSchema,
        { id },
        { invitationTokenHash: hashInvitationToken(link), invitationExpiresAt: new Date(Date.now() + 3_600_000) },
      );
    const { answer, browser } = await attempt(refusing, ['ivy', { email: 'ivy@example.org', email_verified: true }]);
    expect(answer.status).toBe(200);
    expect(await me(refusing, browser)).toEqual({ email: 'ivy@example.org', role: 'member' });
    const member = await refusingServices.db.em.fork().findOneOrFail(AdminUserSchema, { id });
    expect(member.status).toBe('active');
    // The link says "used", not "revoked", to whoever opens it later.
    expect((await findInvitation(refusingServices.db.em.fork(), link)).state).toBe('USED');
    expect((await lastSsoEntry(refusingServices))?.details).toEqual({ method: 'oidc', joined: 'activated' });
  });

  it('refuses a state that is not the one this browser was sent with', async () => {
    await addMember(refusingServices, 'sam@example.com');
    const { answer, browser } = await attempt(
      refusing,
      ['sam', { email: 'sam@example.com', email_verified: true }],
      (url) => url.searchParams.set('state', 'forged-state-value-of-another-attempt'),
    );
    expect(refusal(answer, refusing)).toBe('sso_state_mismatch');
    expect(await me(refusing, browser)).toBeNull();
    expect(await lastSsoEntry(refusingServices)).toMatchObject({
      outcome: 'failure',
      errorCode: 'sso_state_mismatch',
      details: { method: 'oidc' },
    });
  });

  it('refuses an ID token whose nonce is not the one of this attempt', async () => {
    await addMember(refusingServices, 'nina@example.com');
    const { answer, browser } = await attempt(
      refusing,
      ['nina', { email: 'nina@example.com', email_verified: true }],
      (url) => url.searchParams.set('nonce', 'a-nonce-this-attempt-never-sent'),
    );
    expect(refusal(answer, refusing)).toBe('sso_nonce_mismatch');
    expect(await me(refusing, browser)).toBeNull();
    expect(await lastSsoEntry(refusingServices)).toMatchObject({ errorCode: 'sso_nonce_mismatch' });
  });

  it('refuses a code used twice, and a code past its lifetime', async () => {
    await addMember(refusingServices, 'rex@example.com');
    const first = await attempt(refusing, ['rex', { email: 'rex@example.com', email_verified: true }]);
    expect(first.answer.status).toBe(200);
    // The same callback again, with the flow cookie it had: the provider has spent the code.
    const replay = new Browser();
    replay.setCookie(refusing.url, 'intake_oidc_flow', first.flowCookie);
    expect(refusal(await replay.get(first.callbackUrl), refusing)).toBe('sso_code_invalid');
    expect(await me(refusing, replay)).toBeNull();

    provider.setCodeTtlSeconds(1);
    try {
      provider.signInAs('rex', { email: 'rex@example.com', email_verified: true });
      const browser = new Browser();
      let url = locationOf(await browser.get(`${refusing.url}/auth/oidc/start`), refusing.url);
      while (!url.startsWith(`${refusing.url}/`)) {
        url = locationOf(await browser.get(url), url);
      }
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(refusal(await browser.get(url), refusing)).toBe('sso_code_invalid');
      expect(await me(refusing, browser)).toBeNull();
    } finally {
      provider.setCodeTtlSeconds(60);
    }
    expect(await lastSsoEntry(refusingServices)).toMatchObject({ errorCode: 'sso_code_invalid' });
  });

  it('refuses an e-mail the provider does not vouch for', async () => {
    await addMember(refusingServices, 'uma@example.com');
    const { answer, browser } = await attempt(refusing, ['uma', { email: 'uma@example.com', email_verified: false }]);
    expect(refusal(answer, refusing)).toBe('sso_email_unverified');
    expect(await me(refusing, browser)).toBeNull();
    const { answer: noEmail } = await attempt(refusing, ['ghost', {}]);
    expect(refusal(noEmail, refusing)).toBe('sso_email_unverified');
  });

  it('refuses an e-mail domain that is not allowed, even for a member', async () => {
    await addMember(refusingServices, 'dan@elsewhere.net');
    const { answer, browser } = await attempt(refusing, ['dan', { email: 'dan@elsewhere.net', email_verified: true }]);
    expect(refusal(answer, refusing)).toBe('sso_domain_not_allowed');
    expect(await me(refusing, browser)).toBeNull();
  });

  it('refuses an unknown person when new members are refused, and records who tried', async () => {
    const { answer, browser } = await attempt(refusing, ['zoe', { email: 'zoe@example.com', email_verified: true }]);
    expect(refusal(answer, refusing)).toBe('sso_unknown_member');
    expect(await me(refusing, browser)).toBeNull();
    expect(await refusingServices.db.em.fork().count(AdminUserSchema, { email: 'zoe@example.com' })).toBe(0);
    expect(await lastSsoEntry(refusingServices)).toMatchObject({
      actorKind: 'anonymous',
      actorName: 'zoe@example.com',
      errorCode: 'sso_unknown_member',
    });
  });

  it('makes an unknown person with a verified e-mail an active member with no site grants when so configured', async () => {
    const { answer, browser } = await attempt(welcoming, [
      'max',
      { email: 'max@example.com', email_verified: true, name: 'Max Mustermann' },
    ]);
    expect(answer.status).toBe(200);
    expect(await me(welcoming, browser)).toEqual({ email: 'max@example.com', role: 'member' });
    const session = browser.cookie(welcoming.url, SESSION_COOKIE)!;
    const sites = await fetch(`${welcoming.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${session}` },
      body: JSON.stringify({ query: '{ me { name } sites { id } }' }),
    });
    expect(((await sites.json()) as { data: unknown }).data).toEqual({ me: { name: 'Max Mustermann' }, sites: [] });
    // Unverified, they are refused here too.
    const { answer: unverified } = await attempt(welcoming, [
      'mia',
      { email: 'mia@example.com', email_verified: false },
    ]);
    expect(refusal(unverified, welcoming)).toBe('sso_email_unverified');
  });

  it('refuses a disabled member', async () => {
    await addMember(refusingServices, 'dora@example.com', 'admin', 'disabled');
    const { answer, browser } = await attempt(refusing, ['dora', { email: 'dora@example.com', email_verified: true }]);
    expect(refusal(answer, refusing)).toBe('sso_member_disabled');
    expect(await me(refusing, browser)).toBeNull();
  });

  it('answers a callback without a flow, or a provider refusal, with the sign-in page', async () => {
    const browser = new Browser();
    expect(refusal(await browser.get(`${refusing.url}/auth/oidc/callback?code=x&state=y`), refusing)).toBe(
      'sso_state_mismatch',
    );
    // The person cancels at the provider, which sends them back with an error instead of a code.
    const started = await browser.get(`${refusing.url}/auth/oidc/start`);
    const state = new URL(locationOf(started, refusing.url)).searchParams.get('state')!;
    const cancelled = new URL(`${refusing.url}/auth/oidc/callback`);
    cancelled.search = new URLSearchParams({ error: 'access_denied', state, iss: provider.issuer }).toString();
    expect(refusal(await browser.get(cancelled.href), refusing)).toBe('sso_provider_refused');
    expect(await lastSsoEntry(refusingServices)).toMatchObject({ errorCode: 'sso_provider_refused' });
  });

  it('sends people back to the sign-in page when the provider cannot be reached', async () => {
    // Another configuration over the welcoming Intake's database (the refusing one's SSO policy
    // changes below): no database of its own.
    const services = reconfiguredTestServices(welcomingServices, {
      OIDC_ISSUER_URL: 'http://127.0.0.1:9/unreachable',
      OIDC_CLIENT_ID: 'intake',
    });
    const server = await startAdmin(services);
    admins.push({ server, services });
    const answer = await new Browser().get(`${server.url}/auth/oidc/start`);
    expect(refusal(answer, server)).toBe('sso_provider_unavailable');
  });

  it('says single sign-on is not configured where it is not', async () => {
    const services = reconfiguredTestServices(welcomingServices);
    const server = await startAdmin(services);
    admins.push({ server, services });
    expect(refusal(await new Browser().get(`${server.url}/auth/oidc/start`), server)).toBe('sso_not_configured');
    const result = await graphqlRequest(server.url, '{ signInOptions { passwords sso { name } } }');
    expect(result.data).toEqual({ signInOptions: { passwords: true, sso: null } });
  });

  it("enforces the owner's policy: no password for members who can use single sign-on, owners keep theirs", async () => {
    await addMember(refusingServices, 'alex@example.com', 'admin');
    await addMember(refusingServices, 'olga@example.com', 'owner');
    await addMember(refusingServices, 'pat@elsewhere.net', 'member');
    const login = (email: string, password: string) =>
      graphqlRequest<{ login: { token: string } }>(
        refusing.url,
        'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
        { email, password },
      );
    const adminToken = (await login('alex@example.com', MEMBER_PASSWORD)).data!.login.token;
    const ownerToken = (await login(ADMIN_EMAIL, ADMIN_PASSWORD)).data!.login.token;
    const update =
      'mutation($allow: Boolean!) { updateSsoPolicy(passwordSignIn: $allow) { passwordSignIn ssoConfigured } }';

    // An admin may read the policy but not change it.
    expect((await graphqlRequest(refusing.url, '{ ssoPolicy { passwordSignIn } }', {}, adminToken)).data).toEqual({
      ssoPolicy: { passwordSignIn: true },
    });
    expect(codes(await graphqlRequest(refusing.url, update, { allow: false }, adminToken))).toEqual(['FORBIDDEN']);

    const changed = await graphqlRequest(refusing.url, update, { allow: false }, ownerToken);
    expect(changed.data).toEqual({ updateSsoPolicy: { passwordSignIn: false, ssoConfigured: true } });
    try {
      expect(codes(await login('alex@example.com', MEMBER_PASSWORD))).toEqual(['FORBIDDEN']);
      // A wrong password is still only a wrong password: the policy is told to the account's holder alone.
      expect(codes(await login('alex@example.com', 'not the password'))).toEqual(['UNAUTHENTICATED']);
      expect((await login('olga@example.com', MEMBER_PASSWORD)).data?.login.token).toBeTruthy();
      expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD)).data?.login.token).toBeTruthy();
      // Outside the allowed domains nobody can use single sign-on: the password stays.
      expect((await login('pat@elsewhere.net', MEMBER_PASSWORD)).data?.login.token).toBeTruthy();
      const options = await graphqlRequest(refusing.url, '{ signInOptions { passwords } }');
      expect(options.data).toEqual({ signInOptions: { passwords: false } });
      const entry = await refusingServices.db.em
        .fork()
        .findOneOrFail(AuditEntrySchema, { action: 'updateSsoPolicy', outcome: 'success' });
      expect(entry).toMatchObject({ actorName: ADMIN_EMAIL, details: { passwordSignIn: false } });
    } finally {
      await graphqlRequest(refusing.url, update, { allow: true }, ownerToken);
    }
    expect((await login('alex@example.com', MEMBER_PASSWORD)).data?.login.token).toBeTruthy();
  });
});
