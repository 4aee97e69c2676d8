// Sign-in, sign-out, change password and a lost session, through the built console in Chromium.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

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
    // Not signed in: the console sends the visitor to sign-in.
    await expectHeading(page, 'Sign in');
    await checkAccessibility(page, 'sign-in page');
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid e-mail or password' }).waitFor();
    await checkAccessibility(page, 'sign-in page with an error');

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(page, 'Sites');
    await expect(page.getByText(ADMIN_EMAIL).first().isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('signs in through the helper', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    await page.close();
  });
});
