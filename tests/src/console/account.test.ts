// Each member's own page in Chromium: reached from the navigation and from the e-mail in the header,
// it shows their e-mail and role, renames them, and lists their own API tokens (not the team's),
// warning about one that ends within a week. Changing the password there is auth.test.ts's.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { graphqlRequest } from '@intake/shared/test';
import {
  ADMIN_EMAIL,
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: your account', () => {
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('shows who you are, renames you, and lists your own tokens with a warning for one that ends soon', async () => {
    // A token of the owner's that ends in 3 days, one that ends in 90, and one of another member.
    const soon = await env.gql(
      'mutation { createApiToken(name: "Nightly export", scope: { expiresInDays: 3 }) { token } }',
    );
    expect(soon.errors).toBeUndefined();
    await env.gql('mutation { createApiToken(name: "CRM sync") { token } }');
    const other = await env.gql(
      'mutation { createMember(input: { email: "bo@example.com", name: "Bo", role: admin, grants: [] }) { password } }',
    );
    const boLogin = await env.gql(
      'mutation($password: String!) { login(email: "bo@example.com", password: $password) { token } }',
      { password: other.data!.createMember.password },
    );
    expect(boLogin.errors).toBeUndefined();
    const boToken = await graphqlRequest(
      env.url,
      'mutation { createApiToken(name: "Bo deploys") { token } }',
      {},
      boLogin.data!.login.token,
    );
    expect(boToken.errors).toBeUndefined();

    const page = await env.newPage();
    await signIn(page, env.url);
    await page.getByRole('link', { name: `${ADMIN_EMAIL} (your account)` }).click();
    await expectHeading(page, 'Your account');
    await expect(page.getByTestId('account-email').innerText()).resolves.toBe(ADMIN_EMAIL);
    await expect(page.getByTestId('account-role').innerText()).resolves.toBe('Owner');

    const tokens = page.getByRole('region', { name: 'Your API tokens' });
    const nightly = tokens.getByRole('row', { name: /Nightly export/ });
    await nightly.getByText('Ends in 3 days').waitFor();
    await tokens.getByRole('status').filter({ hasText: 'Nightly export ends within a week' }).waitFor();
    await expect(
      tokens
        .getByRole('row', { name: /CRM sync/ })
        .getByText(/Ends in/)
        .count(),
    ).resolves.toBe(0);
    // Another member's token is on the API tokens page of an owner, not on their account page.
    await expect(tokens.getByRole('row', { name: /Bo deploys/ }).count()).resolves.toBe(0);
    await atBothWidths(page, () => checkAccessibility(page, 'your account'));

    // Rename: blank is refused next to the field; a name is saved, trimmed, and read back.
    const name = page.getByRole('textbox', { name: 'Name' });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Enter your name').waitFor();
    await name.fill('  Grace Hopper ');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name saved').waitFor();
    expect((await env.gql('{ me { name } }')).data!.me.name).toBe('Grace Hopper');
    await page.reload();
    await expectHeading(page, 'Your account');
    await expect(page.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Grace Hopper');

    // A new token made here is listed here; deleting it asks first.
    await tokens.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Laptop script');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('dialog', { name: 'Your new API token' }).getByRole('button', { name: 'Done' }).click();
    const laptop = tokens.getByRole('row', { name: /Laptop script/ });
    await laptop.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete token Laptop script?' })
      .getByRole('button', { name: 'Delete token' })
      .click();
    await laptop.waitFor({ state: 'detached' });
    await atBothWidths(page, () => checkAccessibility(page, 'your account after changes'));
    await page.close();
  });
});
