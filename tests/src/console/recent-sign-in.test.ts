// The recent sign-in in Chromium (docs/sign-in.md#recent-sign-in): a change that adds a way in, made
// from a session signed in more than ten minutes ago (its row moved back in time), brings up
// "Confirm it is you"; a wrong password is said there, the right one (or a passkey of the member,
// held by a DevTools virtual authenticator) confirms, the change goes ahead without being asked
// again, and the old cookie is replaced. Cancelled, the change is refused in the API's words. A
// password change then lists the passkeys added since the last sign-in with the password, to remove.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { CDPSession, Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  checkAccessibility,
  describeConsole,
  expectHeading,
  sessionCookie,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: recent sign-in', () => {
  let env: ConsoleEnvironment;
  /** The console at localhost instead of 127.0.0.1 (passkeys refuse IP addresses). */
  let url: string;

  /** Moves the member's sessions back in time, as if they signed in `minutes` ago. */
  async function ageSessions(minutes: number): Promise<void> {
    await env.execute(
      `update admin_sessions set created_at = created_at - (? * interval '1 minute')
       where admin_id = (select id from admin_users where email = ?)`,
      [minutes, ADMIN_EMAIL],
    );
  }

  /** A virtual authenticator that answers only while `use`d (the others wait for a touch). */
  async function authenticators(page: Page) {
    const cdp: CDPSession = await env.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const ids: string[] = [];
    return {
      async add(): Promise<string> {
        const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: {
            protocol: 'ctap2',
            transport: 'usb',
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
            automaticPresenceSimulation: false,
          },
        });
        ids.push(authenticatorId);
        return authenticatorId;
      },
      async use(chosen: string): Promise<void> {
        for (const id of ids) {
          await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: id, enabled: id === chosen });
        }
      },
    };
  }

  beforeAll(async () => {
    env = await startConsole();
    url = env.url.replace('//127.0.0.1:', '//localhost:');
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('asks for the password before a token is made from an old sign-in, then makes it without asking again', async () => {
    const page = await env.newPage();
    await signIn(page, env.url, { path: '/sign-in?next=/api-tokens', heading: 'API tokens' });
    const before = await sessionCookie(env.context);
    await ageSessions(11);

    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByRole('dialog', { name: 'New API token' }).getByRole('textbox', { name: 'Name' }).fill('Nightly');
    await page.getByRole('dialog', { name: 'New API token' }).getByRole('button', { name: 'Create token' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByText('This change needs a sign-in within the last 10 minutes.').waitFor();
    await checkAccessibility(page, 'confirm-it-is-you dialog');
    await page.screenshot({ path: '/tmp/recent-sign-in-dialog.png' });

    await confirm.getByRole('textbox', { name: 'Password', exact: true }).fill('not my password');
    await confirm.getByRole('button', { name: 'Confirm', exact: true }).click();
    await confirm.getByRole('alert').getByText('Is not correct').waitFor();
    await confirm.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await confirm.getByRole('button', { name: 'Confirm', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });

    // The token is made: the refused request was sent again once confirmed.
    const secretDialog = page.getByRole('dialog', { name: 'Your new API token' });
    await secretDialog.waitFor();
    await expect(secretDialog.getByTestId('api-token-secret').innerText()).resolves.toMatch(/^itk_/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /Nightly/ }).waitFor();
    // A new session replaced the old one.
    const after = await sessionCookie(env.context);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    await page.close();
  });

  it('refuses the change in the API’s words when the confirmation is cancelled', async () => {
    const page = await env.newPage();
    await signIn(page, env.url, { path: '/sign-in?next=/api-tokens', heading: 'API tokens' });
    await ageSessions(11);
    await page.getByRole('button', { name: 'New token' }).click();
    const create = page.getByRole('dialog', { name: 'New API token' });
    await create.getByRole('textbox', { name: 'Name' }).fill('Never made');
    await create.getByRole('button', { name: 'Create token' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await create.getByText(/This change needs a sign-in within the last 10 minutes/).waitFor();
    const tokens = await env.gql<{ apiTokens: { name: string }[] }>('{ apiTokens { name } }');
    expect(tokens.data!.apiTokens.map((token) => token.name)).not.toContain('Never made');
    await page.close();
  });

  it('confirms with a passkey, and a password change lists the passkeys added since the password sign-in, to remove', async () => {
    const page = await env.newPage();
    const devices = await authenticators(page);
    await signIn(page, url, { path: '/sign-in?next=/account', heading: 'Your account' });
    const passkeys = page.getByRole('region', { name: 'Passkeys' });

    const laptop = await devices.add();
    await devices.use(laptop);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('textbox', { name: 'Name' }).fill('Laptop');
    await page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('button', { name: 'Create passkey' }).click();
    await passkeys.getByRole('row', { name: /Laptop/ }).waitFor();

    // Eleven minutes on, a new API token: confirmed with the laptop's passkey, then made.
    await ageSessions(11);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await expectHeading(page, 'API tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByRole('dialog', { name: 'New API token' }).getByRole('textbox', { name: 'Name' }).fill('Deploys');
    await page.getByRole('dialog', { name: 'New API token' }).getByRole('button', { name: 'Create token' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('button', { name: 'Confirm with a passkey' }).click();
    await confirm.waitFor({ state: 'detached' });
    const secretDialog = page.getByRole('dialog', { name: 'Your new API token' });
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /Deploys/ }).waitFor();

    // The confirmed session adds a passkey on a security key without being asked again.
    await page.getByRole('link', { name: 'Your account', exact: true }).click();
    await expectHeading(page, 'Your account');
    const key = await devices.add();
    await devices.use(key);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const add = page.getByRole('dialog', { name: 'Add a passkey' });
    await add.getByRole('textbox', { name: 'Name' }).fill('Security key');
    await add.getByRole('button', { name: 'Create passkey' }).click();
    await passkeys.getByRole('row', { name: /Security key/ }).waitFor();
    await expect(confirm.count()).resolves.toBe(0);

    // The password change lists both (added after the password sign-in); one is removed from there.
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByRole('textbox', { name: 'Current password' }).fill(ADMIN_PASSWORD);
    await password.getByRole('textbox', { name: 'New password', exact: true }).fill('a new password for the owner');
    await password.getByRole('textbox', { name: 'Confirm new password' }).fill('a new password for the owner');
    await password.getByRole('button', { name: 'Change password' }).click();
    const review = page.getByRole('region', { name: 'Passkeys added since you last signed in with your password' });
    await review.waitFor();
    await expect(review.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Laptop'),
      expect.stringContaining('Security key'),
    ]);
    await checkAccessibility(page, 'passkeys to review after a password change');
    await page.screenshot({ path: '/tmp/recent-sign-in-review.png', fullPage: true });
    await review.getByRole('button', { name: 'Remove passkey Security key' }).click();
    await passkeys.getByRole('row', { name: /Security key/ }).waitFor({ state: 'detached' });
    await review.getByRole('button', { name: 'Keep them' }).click();
    await review.waitFor({ state: 'detached' });
    await expect(passkeys.getByRole('row', { name: /Laptop/ }).count()).resolves.toBe(1);
    await expectHeading(page, 'Your account');
    await page.close();
  });
});
