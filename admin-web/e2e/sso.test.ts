// Single sign-on through the built console in Chromium, against a real OpenID provider on loopback
// (oidc-provider, approving at once as the account the test names): the button on the sign-in page
// leads through the provider and back, signed in; a refusal comes back to the sign-in page in words.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTestOidcProvider, type TestOidcProvider } from '@intake/admin-api/test';
import {
  ADMIN_EMAIL,
  SESSION_COOKIE,
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  sessionCookie,
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
