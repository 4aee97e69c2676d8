// API tokens through the console in Chromium: the secret is shown once and works as a bearer token
// on /graphql until it is deleted.
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

describeConsole('console: API tokens', () => {
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('creates a token whose secret works once shown, then deletes it and the secret stops working', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await expectHeading(page, 'API tokens');
    await page.getByText('No API tokens.').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'API tokens, none'));

    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('CRM & import');
    await checkAccessibility(page, 'new token dialog');
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Your new API token' });
    await secretDialog.waitFor();
    await checkAccessibility(page, 'new token secret dialog');
    const secret = (await secretDialog.getByTestId('api-token-secret').innerText()).trim();
    expect(secret.length).toBeGreaterThan(20);
    // Copy puts exactly the secret on the clipboard.
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);

    const me = await graphqlRequest<{ me: { email: string } }>(env.url, '{ me { email } }', {}, secret);
    expect(me.data?.me.email).toBe(ADMIN_EMAIL);

    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });
    // Listed with its name as typed; the secret is nowhere on the page any more.
    const row = page.getByRole('row', { name: /CRM & import/ });
    await row.waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await page.reload();
    await expectHeading(page, 'API tokens');
    await row.waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'API tokens, one'));

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete token CRM & import?' });
    await checkAccessibility(page, 'delete token dialog');
    await confirm.getByRole('button', { name: 'Delete token' }).click();
    await page.getByText('No API tokens.').waitFor();

    const refused = await graphqlRequest(env.url, '{ me { email } }', {}, secret);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await page.close();
  });

  it('creates a read token for one site that ends in a week, and lists its level, sites and end with a warning', async () => {
    const shop = await env.createSiteAndForm('Shop');
    const blog = await env.createSiteAndForm('Blog');
    const page = await env.newPage();
    await signIn(page, env.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await expectHeading(page, 'API tokens');

    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop reader');
    await dialog.getByRole('radio', { name: /^Read/ }).check();
    await dialog.getByRole('checkbox', { name: 'Shop' }).check();
    await dialog.getByRole('combobox', { name: 'Expires after' }).selectOption({ label: '7 days' });
    // Owners may make a token that never ends.
    await expect(
      dialog.getByRole('combobox', { name: 'Expires after' }).locator('option', { hasText: 'Never' }).count(),
    ).resolves.toBe(1);
    await checkAccessibility(page, 'new token dialog with scope');
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Your new API token' });
    await secretDialog.waitFor();
    const secret = (await secretDialog.getByTestId('api-token-secret').innerText()).trim();
    const sites = await graphqlRequest<{ sites: { id: string }[] }>(env.url, '{ sites { id } }', {}, secret);
    expect(sites.data?.sites.map((site) => site.id)).toEqual([shop.siteId]);
    const rename = await graphqlRequest(
      env.url,
      'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }',
      { id: shop.siteId },
      secret,
    );
    expect(rename.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const hidden = await graphqlRequest<{ site: unknown }>(
      env.url,
      'query($id: ID!) { site(id: $id) { id } }',
      { id: blog.siteId },
      secret,
    );
    expect(hidden.data?.site).toBeNull();
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Shop reader/ });
    await row.waitFor();
    await expect(row.getByRole('cell', { name: 'Read', exact: true }).count()).resolves.toBe(1);
    await expect(row.getByRole('cell', { name: 'Shop', exact: true }).count()).resolves.toBe(1);
    await row.getByText('Ends in 7 days').waitFor();

    // The defaults: everything an owner's role allows, every site, 90 days, no warning.
    await page.getByRole('button', { name: 'New token' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Nightly');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    const nightly = page.getByRole('row', { name: /Nightly/ });
    await nightly.waitFor();
    await expect(nightly.getByRole('cell', { name: 'Admin', exact: true }).count()).resolves.toBe(1);
    await expect(nightly.getByRole('cell', { name: 'Every site', exact: true }).count()).resolves.toBe(1);
    await expect(nightly.getByText(/Ends in/).count()).resolves.toBe(0);
    await atBothWidths(page, () => checkAccessibility(page, 'API tokens with scopes'));
    await page.close();
  });
});
