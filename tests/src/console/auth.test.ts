// Sign-in, sign-out, change password (on the account page) and a lost session, through the built console in Chromium.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  SESSION_COOKIE,
  atBothWidths,
  checkAccessibility,
  describedBy,
  describeConsole,
  expectHeading,
  sessionCookie,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

/** `me` over /graphql with nothing but the session cookie, as a replayed request would be sent. */
async function meWithCookie(url: string, cookie: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${cookie}` },
    body: JSON.stringify({ query: '{ me { email } }' }),
  });
  return { status: response.status, body: await response.json() };
}

describeConsole('console: signing in and out', () => {
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('refuses a wrong password in words, then signs in with the right one', async () => {
    const page = await env.newPage();
    await page.goto(env.url);
    // Not signed in: the console sends the visitor to sign-in, with no word of a session ended.
    await expectHeading(page, 'Sign in');
    await expect(page.getByText('Your session has ended').count()).resolves.toBe(0);
    await atBothWidths(page, () => checkAccessibility(page, 'sign-in page'));
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid e-mail or password' }).waitFor();
    await checkAccessibility(page, 'sign-in page with an error');
    expect(await sessionCookie(env.context)).toBeUndefined();

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectHeading(page, 'Sites');
    await page.getByText(ADMIN_EMAIL).first().waitFor();
    // The cookie carries the session; the page's scripts cannot read it.
    const cookie = (await env.context.cookies()).find((each) => each.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await expect(page.evaluate(() => document.cookie)).resolves.not.toContain(SESSION_COOKIE);
    await page.close();
  });

  it('signs out: back to sign-in, and the old cookie no longer works on /graphql', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    const cookie = await sessionCookie(env.context);
    expect(cookie).toBeDefined();
    await expect(meWithCookie(env.url, cookie!)).resolves.toMatchObject({
      body: { data: { me: { email: ADMIN_EMAIL } } },
    });

    // On a small screen too: Sign out stays in the header.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByText('Signed out').waitFor();
    await expect(page.getByText('Your session has ended').count()).resolves.toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    const replayed = await meWithCookie(env.url, cookie!);
    expect(replayed.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(replayed.body.data ?? null).toBeNull();

    // The pages behind sign-in are closed again.
    await page.goto(`${env.url}/sites`);
    await expectHeading(page, 'Sign in');
    await page.close();
  });

  it('a lost session returns to sign-in, then back to the page it was on', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await expectHeading(page, 'API tokens');
    await env.context.clearCookies({ name: SESSION_COOKIE });

    // The next request the page makes finds no session.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByText('Your session has ended').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/sites');
    await checkAccessibility(page, 'sign-in after a lost session');
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectHeading(page, 'Sites');
    expect(new URL(page.url()).pathname).toBe('/sites');

    // A deep link opened without a session comes back the same way.
    await env.context.clearCookies({ name: SESSION_COOKIE });
    await page.goto(`${env.url}/api-tokens?x=1`);
    await expectHeading(page, 'Sign in');
    await signIn(page, env.url, {
      path: new URL(page.url()).pathname + new URL(page.url()).search,
      heading: 'API tokens',
    });
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/api-tokens?x=1');
    // Only paths on this origin are followed after sign-in.
    await env.context.clearCookies({ name: SESSION_COOKIE });
    await signIn(page, env.url, { path: '/sign-in?next=//evil.example/x' });
    expect(new URL(page.url()).origin).toBe(env.url);
    await page.close();
  });

  it('changes the password: errors next to the fields, then the new one signs in', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    // The password is on the account page, reached from the navigation (the old address leads there).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your account' }).click();
    await expectHeading(page, 'Your account');
    await page.goto(`${env.url}/account/password`);
    await expectHeading(page, 'Your account');
    expect(new URL(page.url()).pathname).toBe('/account');
    await atBothWidths(page, () => checkAccessibility(page, 'change password'));
    const current = page.getByRole('textbox', { name: 'Current password' });
    const fresh = page.getByRole('textbox', { name: 'New password', exact: true });
    const confirm = page.getByRole('textbox', { name: 'Confirm new password' });
    const newPassword = 'a brand new passphrase for the console';

    await current.fill('wrong current password');
    await fresh.fill(newPassword);
    await confirm.fill('something else');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two new passwords differ').waitFor();

    await confirm.fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    // The API's objection, next to the current password field.
    await page.getByText('Is not correct').waitFor();
    await expect(describedBy(current)).resolves.toContain('Is not correct');
    await checkAccessibility(page, 'change password with an error');

    await current.fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    // This session goes on (its cookie was re-issued) …
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await expectHeading(page, 'Sites');

    // … and only the new password signs in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid e-mail or password' }).waitFor();
    await signIn(page, env.url, { password: newPassword });
    await page.close();
  });
});
