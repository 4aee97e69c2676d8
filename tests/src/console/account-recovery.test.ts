// A forgotten password and a lost phone in Chromium, with the delivery worker and a real SMTP sink:
// "Forgot password?" on the sign-in page, the link from the e-mail, a new password, and a sign-in
// that still asks for the member's code; then an owner's "Reset two-factor" on the Members page,
// asked first by a dialog, after which the member is listed without a second factor.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { graphqlRequest, startSmtpInbox, type SmtpInbox } from '@intake/shared/test';
import { Secret, TOTP } from 'otpauth';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const NEW_PASSWORD = 'a brand new password 42';
const MEMBER = 'query($id: ID!) { member(id: $id) { twoFactorEnabled secondFactor } }';

function codeAt(secret: string, offsetSteps = 0): string {
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return app.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describeConsole('console: a forgotten password and a lost phone', () => {
  let env: ConsoleEnvironment;
  let inbox: SmtpInbox;
  let dee: { id: string; email: string; password: string; secret: string };

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    env = await startConsole({ SMTP_URL: inbox.url, DELIVERY_POLL_INTERVAL_MS: '100' }, { deliveryWorker: true });
    const created = await env.gql(
      'mutation { createMember(input: { email: "dee@example.com", name: "Dee", role: member, grants: [] }) { password member { id } } }',
    );
    const { password, member } = created.data!.createMember;
    const login = await graphqlRequest<{ login: { token: string } }>(
      env.url,
      'mutation($password: String!) { login(email: "dee@example.com", password: $password) { token } }',
      { password },
    );
    const token = login.data!.login.token;
    const started = await graphqlRequest<{ startTwoFactorEnrolment: { secret: string } }>(
      env.url,
      'mutation { startTwoFactorEnrolment { secret } }',
      {},
      token,
    );
    const secret = started.data!.startTwoFactorEnrolment.secret;
    const confirmed = await graphqlRequest(
      env.url,
      'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
      { code: codeAt(secret, -1) },
      token,
    );
    expect(confirmed.errors).toBeUndefined();
    dee = { id: member.id, email: 'dee@example.com', password, secret };
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await inbox?.close();
  });

  it('sends a link from "Forgot password?", sets a new password with it, and still asks for the code', async () => {
    const page = await env.newPage();
    await page.goto(`${env.url}/sign-in`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expectHeading(page, 'Reset your password');
    await atBothWidths(page, () => checkAccessibility(page, 'forgot password'));
    await page.getByRole('textbox', { name: 'Email' }).fill(dee.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your e-mail').waitFor();
    await inbox.waitFor(1);
    expect(inbox.messages[0]!.to).toEqual([dee.email]);
    const link = /\S+\/reset-password#\S+/.exec(inbox.messages[0]!.text)![0];
    // The configured address (localhost on the admin's port here), never the Host of the request.
    expect(link.startsWith(`http://localhost:${new URL(env.url).port}/reset-password#`)).toBe(true);

    await page.goto(link);
    await expectHeading(page, 'Choose a new password');
    await atBothWidths(page, () => checkAccessibility(page, 'reset password'));
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByText('Your password is changed').waitFor();

    // The new password, then the second factor as before.
    await page.getByRole('textbox', { name: 'Email' }).fill(dee.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(dee.secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHeading(page, 'Sites');

    // The link worked once.
    await page.context().clearCookies();
    await page.goto(link);
    await page.getByLabel('New password').fill('yet another password 1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expectHeading(page, 'This reset link no longer works');
    await page.close();
  });

  it("resets a member's two-factor sign-in from the Members page after a confirmation", async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await expectHeading(page, 'Members');
    const row = page.getByRole('row', { name: /dee@example\.com/ });
    await row.getByText('Two-factor on').waitFor();
    await row.getByRole('button', { name: 'Reset two-factor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the two-factor sign-in of Dee?' });
    await dialog.getByText(/lost their phone/).waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'reset two-factor dialog'));
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await row.getByText('No second factor').waitFor();
    await expect(row.getByRole('button', { name: 'Reset two-factor' }).count()).resolves.toBe(0);
    expect((await env.gql(MEMBER, { id: dee.id })).data!.member).toEqual({
      twoFactorEnabled: false,
      secondFactor: false,
    });

    // A reset link goes out by e-mail from the same row.
    const before = inbox.messages.length;
    await row.getByRole('button', { name: 'Reset password' }).click();
    await page
      .getByRole('dialog', { name: 'Send Dee a password reset link?' })
      .getByRole('button', { name: 'Send reset link' })
      .click();
    await page.getByText(`Reset link sent to ${dee.email}`).waitFor();
    await inbox.waitFor(before + 1);
    expect(inbox.messages[before]!.to).toEqual([dee.email]);
    await atBothWidths(page, () => checkAccessibility(page, 'members with resets'));
    await page.close();
  });
});
