// Two-factor sign-in through the built console in Chromium: a member sets it up (QR code, the secret
// written out, a first code computed here from that secret as an app would, recovery codes copied
// and downloaded), signs in again with a code and with a recovery code, and a member the team's
// policy holds is taken to the page and let go once it is set up.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import {
  VIEWPORTS,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
  downloadedBytes,
} from './harness.js';

const STEP_MS = 30_000;

function codeAt(secret: string, offsetSteps = 0): string {
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return app.generate({ timestamp: Date.now() + offsetSteps * STEP_MS });
}

/** Waits, when the current 30-second step ends within `needMs`, for the next one. */
async function withinOneStep(needMs = 15_000): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < needMs) {
    await new Promise((resolve) => setTimeout(resolve, left + 250));
  }
}

describeConsole('console: two-factor sign-in', () => {
  let env: ConsoleEnvironment;

  async function newMember(email: string): Promise<{ email: string; password: string }> {
    const created = await env.gql<{ createMember: { password: string } }>(
      'mutation($email: String!) { createMember(input: { email: $email, name: "Tester", role: member, grants: [] }) { password } }',
      { email },
    );
    return { email, password: created.data!.createMember.password };
  }

  /** Sets it up on the open Two-factor sign-in page; answers the secret and the recovery codes shown. */
  async function enrolOnPage(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code of your two-factor secret' }).locator('svg').waitFor();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await checkAccessibility(page, 'two-factor set-up with the QR code');
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/h3-two-factor-qr-${width}.png`, fullPage: true });
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await withinOneStep();
    await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret, -1));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    return { secret, recoveryCodes };
  }

  async function signInWith(page: Page, person: { email: string; password: string }): Promise<void> {
    await page.goto(`${env.url}/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('sets it up with the QR code and a first code, shows the recovery codes once, then signs in with a code and with a recovery code', async () => {
    const ada = await newMember('ada@example.com');
    const page = await env.newPage();
    await signIn(page, env.url, ada);
    await page.getByRole('link', { name: 'Two-factor sign-in' }).click();
    await expectHeading(page, 'Two-factor sign-in');
    // One page is the current one: this, not "Your account" above it.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').allInnerTexts(),
    ).resolves.toEqual(['Two-factor sign-in']);
    await checkAccessibility(page, 'two-factor page before set-up');
    const { secret, recoveryCodes } = await enrolOnPage(page);
    await checkAccessibility(page, 'recovery codes');
    await page.screenshot({ path: '/tmp/h3-recovery-codes-1440.png', fullPage: true });

    // Copy puts every code on the clipboard; Download saves them as a text file.
    await page.getByRole('button', { name: 'Copy' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('intake-recovery-codes.txt');
    const saved = (await downloadedBytes(download)).toString('utf8');
    for (const code of recoveryCodes) {
      expect(copied).toContain(code);
      expect(saved).toContain(code);
    }
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Two-factor sign-in is', { exact: false }).first().waitFor();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).count()).resolves.toBe(0);

    // Signing in now asks for the code after the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await signInWith(page, ada);
    await expectHeading(page, 'Two-factor sign-in');
    await expect(page.getByRole('textbox', { name: 'Password', exact: true }).count()).resolves.toBe(0);
    await checkAccessibility(page, 'code step');
    await page.getByRole('textbox', { name: 'Code' }).fill('000000' === codeAt(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid or expired code' }).waitFor();
    await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHeading(page, 'Sites');

    // And with a recovery code instead.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await signInWith(page, ada);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHeading(page, 'Sites');
    await page.close();
  });

  it("takes a member the team's policy holds to set-up after sign-in, and lets them go once it is on", async () => {
    // The owner sets up their own second factor first (through the API), then requires it.
    const started = await env.gql<{ startTwoFactorEnrolment: { secret: string } }>(
      'mutation { startTwoFactorEnrolment { secret } }',
    );
    const ownerSecret = started.data!.startTwoFactorEnrolment.secret;
    await withinOneStep();
    const confirmed = await env.gql('mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }', {
      code: codeAt(ownerSecret),
    });
    expect(confirmed.errors).toBeUndefined();
    const policy = await env.gql(
      'mutation { updateTeamPolicy(input: { requireSecondFactor: true }) { requireSecondFactor } }',
    );
    expect(policy.errors).toBeUndefined();

    const bo = await newMember('bo@example.com');
    const page = await env.newPage();
    await signInWith(page, bo);
    await expectHeading(page, 'Two-factor sign-in');
    await page.getByRole('status').filter({ hasText: 'Your team requires two-factor sign-in' }).waitFor();
    // Another page leads back here until it is set up.
    await page.goto(`${env.url}/sites`);
    await expectHeading(page, 'Two-factor sign-in');
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/h3-two-factor-held-${width}.png`, fullPage: true });
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await enrolOnPage(page);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('link', { name: 'Sites' }).click();
    await expectHeading(page, 'Sites');
    await page.close();
  });
});
