// The console's cookie session against a listening admin: how the cookie is set, that /graphql
// accepts it without a header, and that sign-out and a password change end it server-side.
import { jest } from '@jest/globals';
import { AdminSessionSchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { SESSION_COOKIE } from './session-cookie.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';

jest.setTimeout(60_000);

const LOGIN = `mutation($email: String!, $password: String!) { login(email: $email, password: $password) { expiresAt } }`;

interface Answer {
  status: number;
  setCookie: string[];
  body: { data?: Record<string, any> | null; errors?: { extensions?: { code?: string } }[] };
}

describe(`console session cookie on ${testDriverName()}`, () => {
  let admin: TestAdmin;

  beforeAll(async () => {
    admin = await startTestAdmin();
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function post(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      setCookie: response.headers.getSetCookie(),
      body: (await response.json()) as Answer['body'],
    };
  }

  async function signIn(headers: Record<string, string> = {}, password = ADMIN_PASSWORD): Promise<string> {
    const answer = await post(LOGIN, { email: ADMIN_EMAIL, password }, headers);
    expect(answer.body.errors).toBeUndefined();
    const cookie = answer.setCookie.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    return cookie!.split(';')[0]!;
  }

  const me = (cookie: string) => post('{ me { email } }', {}, { cookie });

  it('sets an HttpOnly, SameSite=Strict cookie on login, not Secure over plain http', async () => {
    const answer = await post(LOGIN, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const line = answer.setCookie.find((value) => value.startsWith(`${SESSION_COOKIE}=`))!;
    const attributes = line.toLowerCase().split(/;\s*/);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(attributes).not.toContain('secure');
    expect(attributes.some((attribute) => attribute.startsWith('expires='))).toBe(true);
    // The console selects `expiresAt` only: nothing in the body can be used as a credential.
    expect(JSON.stringify(answer.body)).not.toContain(line.split(';')[0]!.split('=')[1]);
  });

  it('lets the cookie alone authenticate, and only a live one', async () => {
    const cookie = await signIn();
    const answer = await me(cookie);
    expect(answer.status).toBe(200);
    expect(answer.body.data?.me.email).toBe(ADMIN_EMAIL);

    const forged = await me(`${SESSION_COOKIE}=${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(codes(forged.body as never)).toEqual(['UNAUTHENTICATED']);
  });

  it('never falls back to the cookie when an Authorization header is present but wrong', async () => {
    const cookie = await signIn();
    const answer = await post('{ me { email } }', {}, { cookie, authorization: 'Bearer not-a-token' });
    expect(answer.status).toBe(401);
  });

  it('ends the session server-side on logout: the same cookie is refused afterwards', async () => {
    const cookie = await signIn();
    const other = await signIn();
    const logout = await post('mutation { logout }', {}, { cookie });
    expect(logout.body.data?.logout).toBe(true);
    // The browser is told to drop it too.
    expect(logout.setCookie.some((line) => line.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);

    const replay = await me(cookie);
    expect(replay.status).toBe(401);
    expect(codes(replay.body as never)).toEqual(['UNAUTHENTICATED']);
    // Another sign-in of the same admin is not affected.
    expect((await me(other)).body.data?.me.email).toBe(ADMIN_EMAIL);
  });

  it('refuses an expired session', async () => {
    const cookie = await signIn();
    const em = admin.services.db.em.fork();
    await em.nativeUpdate(AdminSessionSchema, {}, { expiresAt: new Date(Date.now() - 1000) });
    expect((await me(cookie)).status).toBe(401);
  });

  it('keeps CSRF prevention on: a simple (non-JSON) cross-site POST with the cookie is not executed', async () => {
    const cookie = await signIn();
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie },
      body: JSON.stringify({ query: 'mutation { createSite(input: { name: "forged" }) { id } }' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const sites = await post('{ sites { name } }', {}, { cookie });
    expect(sites.body.data?.sites.map((site: { name: string }) => site.name)).not.toContain('forged');
  });

  it('signs out everywhere on a password change and re-issues the cookie of the request', async () => {
    const first = await signIn();
    const second = await signIn();
    const newPassword = 'a much longer new password 42';
    const changed = await post(
      'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { expiresAt } }',
      { c: ADMIN_PASSWORD, n: newPassword },
      { cookie: first },
    );
    expect(changed.body.errors).toBeUndefined();
    const renewed = changed.setCookie.find((line) => line.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0]!;
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
    expect((await me(renewed)).body.data?.me.email).toBe(ADMIN_EMAIL);

    // Put the password back for the other tests of this file.
    await post(
      'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { expiresAt } }',
      { c: newPassword, n: ADMIN_PASSWORD },
      { cookie: renewed },
    );
  });
});

describe(`console session cookie behind https on ${testDriverName()}`, () => {
  it.each([
    ['PUBLIC_ADMIN_URL', { PUBLIC_ADMIN_URL: 'https://admin.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://intake.example.com' }],
  ])('is Secure, with HSTS on every answer, when %s is https', async (_name, env) => {
    const admin = await startTestAdmin(env);
    try {
      const response = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: LOGIN, variables: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }),
      });
      const line = response.headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE}=`))!;
      expect(line.toLowerCase().split(/;\s*/)).toContain('secure');
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect((await fetch(`${admin.url}/healthz`)).headers.get('strict-transport-security')).toBe('max-age=31536000');
    } finally {
      await admin.close();
    }
  });

  it('sends no HSTS over plain http without an https public address', async () => {
    const admin = await startTestAdmin({ PUBLIC_URL: 'http://intake.lan:4000' });
    try {
      expect((await fetch(`${admin.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await admin.close();
    }
  });
});
