// Single sign-on through the built console in Chromium, against a real OpenID provider on loopback
// (oidc-provider, approving at once as the account the test names): the button on the sign-in page
// leads through the provider and back, signed in; a member with two-factor sign-in is asked for the
// code after it; an owner unlinks a member's provider account; a refusal comes back in words.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { graphqlRequest, startTestOidcProvider, type TestOidcProvider } from '@intake/admin-api/test';
import { Secret, TOTP } from 'otpauth';
import {
  ADMIN_EMAIL,
  SESSION_COOKIE,
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  sessionCookie,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: single sign-on', () => {
  let provider: TestOidcProvider;
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    env = await startConsole({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_PROVIDER_NAME: 'Example SSO',
      OIDC_ALLOWED_DOMAINS: 'example.com',
    });
    provider.allowRedirect(`${env.url}/auth/oidc/callback`);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await provider?.close();
  });

  it('signs in with the button "Sign in with <provider>" and lands in the console', async () => {
    provider.signInAs('owner-at-the-provider', { email: ADMIN_EMAIL, email_verified: true });
    const page = await env.newPage();
    await page.goto(`${env.url}/api-tokens`);
    await expectHeading(page, 'Sign in');
    const button = page.getByRole('link', { name: 'Sign in with Example SSO' });
    await button.waitFor();
    await atBothWidths(page, async (width) => {
      await checkAccessibility(page, `sign-in page with single sign-on at ${width}`);
      if (process.env.SCREENSHOT_DIR) {
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/sso-sign-in-${width}.png` });
      }
    });
    await button.click();
    // Back from the provider, on the page the session was asked for.
    await expectHeading(page, 'API tokens');
    await page.getByText(ADMIN_EMAIL).first().waitFor();
    const cookie = (await env.context.cookies()).find((each) => each.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // The owner forbids passwords to people who can use single sign-on, on the Members page.
    await page.getByRole('link', { name: 'Members' }).click();
    const allowPasswords = page.getByRole('switch', { name: /may also sign in with a password/ });
    await allowPasswords.waitFor();
    expect(await allowPasswords.isChecked()).toBe(true);
    await allowPasswords.click({ force: true });
    await page.getByText('Passwords are now for owners only').waitFor();
    const policy = await env.gql<{ ssoPolicy: { passwordSignIn: boolean } }>('{ ssoPolicy { passwordSignIn } }');
    expect(policy.data?.ssoPolicy.passwordSignIn).toBe(false);
    await checkAccessibility(page, 'Members page with the single sign-on policy');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    expect(await sessionCookie(env.context)).toBeUndefined();
    await page.getByText('Owners: with a password').waitFor();
    await env.gql('mutation { updateSsoPolicy(passwordSignIn: true) { passwordSignIn } }');
  });

  it('asks a member with two-factor sign-in for their code after the provider; an owner unlinks their provider account', async () => {
    // A member with an authenticator app, set up through the API as the console does.
    const created = await env.gql<{ createMember: { password: string } }>(
      'mutation { createMember(input: { email: "tess@example.com", name: "Tess", role: admin, grants: [] }) { password } }',
    );
    const password = created.data!.createMember.password;
    const login = await graphqlRequest<{ login: { token: string } }>(
      env.url,
      'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
      { email: 'tess@example.com', password },
    );
    const token = login.data!.login.token;
    const enrolled = await graphqlRequest<{ startTwoFactorEnrolment: { secret: string } }>(
      env.url,
      'mutation { startTwoFactorEnrolment { secret } }',
      {},
      token,
    );
    const app = new TOTP({
      secret: Secret.fromBase32(enrolled.data!.startTwoFactorEnrolment.secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    const confirmed = await graphqlRequest(
      env.url,
      'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
      { code: app.generate({ timestamp: Date.now() - 30_000 }) },
      token,
    );
    expect(confirmed.errors).toBeUndefined();

    provider.signInAs('tess-at-the-provider', { email: 'tess@example.com', email_verified: true });
    await env.context.clearCookies();
    const page = await env.newPage();
    await page.goto(`${env.url}/sign-in?next=%2Fapi-tokens`);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    // The provider alone is not enough: the same step as after a password.
    await expectHeading(page, 'Two-factor sign-in');
    expect(await sessionCookie(env.context)).toBeUndefined();
    await checkAccessibility(page, 'second factor after single sign-on');
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/sso-second-factor.png` });
    }
    // Not the code of the step before or after: at most one step old, as the API accepts.
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 8_000) {
      await new Promise((resolve) => setTimeout(resolve, left + 250));
    }
    await page.getByRole('textbox', { name: 'Code' }).fill(app.generate());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHeading(page, 'API tokens');
    await page.getByText('tess@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');

    // An owner signs in (a return path that would lead to another host leads to the sites) and
    // unlinks Tess's account at the provider on the Members page.
    await signIn(page, env.url, { path: `/sign-in?next=${encodeURIComponent('/.//evil.example/x')}` });
    expect(new URL(page.url()).origin).toBe(env.url);
    expect(new URL(page.url()).pathname).toBe('/sites');
    await page.getByRole('link', { name: 'Members' }).click();
    const row = page.getByRole('row').filter({ hasText: 'tess@example.com' });
    await row.getByText('Linked to single sign-on').waitFor();
    await row.getByRole('button', { name: 'Unlink single sign-on' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Only the account at the identity provider').waitFor();
    await checkAccessibility(page, 'unlink single sign-on dialog');
    await dialog.getByRole('button', { name: 'Unlink single sign-on' }).click();
    await page.getByText('Tess unlinked').waitFor();
    // The toast comes with the mutation's answer; the members list is read again after it.
    await row.getByText('Linked to single sign-on').waitFor({ state: 'detached' });
    const members = await env.gql<{ members: { email: string; ssoLinked: boolean }[] }>(
      '{ members { email ssoLinked } }',
    );
    expect(members.data?.members.find((member) => member.email === 'tess@example.com')?.ssoLinked).toBe(false);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
  });

  it('brings someone the team does not know back to the sign-in page, saying why', async () => {
    provider.signInAs('stranger', { email: 'stranger@example.com', email_verified: true });
    // A new browser: the provider would otherwise remember who signed in there before.
    await env.context.clearCookies();
    const page = await env.newPage();
    await page.goto(`${env.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nobody in this team has your e-mail address' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await checkAccessibility(page, 'sign-in page with a single sign-on refusal');
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/sso-refused.png` });
    }
    expect(await sessionCookie(env.context)).toBeUndefined();
  });
});
