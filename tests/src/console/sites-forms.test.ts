// Sites and forms through the console in Chromium: create, list with counts, edit, settings,
// delete through the confirmation dialog; each change checked through GraphQL too.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  eventually,
  expectHeading,
  signIn,
  startConsole,
  VIEWPORTS,
  type ConsoleEnvironment,
} from './harness.js';

interface FormRow {
  id: string;
  name: string;
  code: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  usesDefaultMimeTypes: boolean;
  maxFileSize: number;
  notifyEmails: string[];
}

describeConsole('console: sites and forms', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let form: FormRow;

  const formById = async (id: string): Promise<FormRow | null> => {
    const result = await env.gql<{ form: FormRow | null }>(
      'query ($id: ID!) { form(id: $id) { id name code enabled allowedMimeTypes usesDefaultMimeTypes maxFileSize notifyEmails } }',
      { id },
    );
    return result.data!.form;
  };

  beforeAll(async () => {
    env = await startConsole({ MAX_FILE_SIZE: String(10 * 1024 * 1024) });
    page = await env.newPage();
    await signIn(page, env.url);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('creates a site through the dialog and lists it', async () => {
    await page.getByText('No sites yet').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'sites page, empty'));
    await page.getByRole('button', { name: 'New site' }).click();
    const dialog = page.getByRole('dialog', { name: 'New site' });
    // The API's objection appears next to the field that caused it.
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Tom & Jerry');
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
    await dialog.getByRole('button', { name: 'Create site' }).click();
    await dialog
      .getByText(/^Must be|^Is not|valid/)
      .first()
      .waitFor();
    await checkAccessibility(page, 'new site dialog with an error');
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('shop.example.com');
    await dialog.getByRole('button', { name: 'Create site' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row', { name: /Tom & Jerry/ });
    await row.waitFor();
    await expect(row.getByRole('cell').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['shop.example.com', '0']),
    );
    const sites = await env.gql<{ sites: { id: string; name: string; domain: string }[] }>(
      '{ sites { id name domain } }',
    );
    expect(sites.data!.sites).toHaveLength(1);
    expect(sites.data!.sites[0]!.domain).toBe('shop.example.com');
    siteId = sites.data!.sites[0]!.id;
    await atBothWidths(page, () => checkAccessibility(page, 'sites page with a site'));
  });

  it('edits the site', async () => {
    await page
      .getByRole('row', { name: /Tom & Jerry/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit site' });
    // The field shows the name as typed, decoded once from its stored form.
    await expect(dialog.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Tom & Jerry');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop');
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('');
    await checkAccessibility(page, 'edit site dialog');
    await dialog.getByRole('button', { name: 'Save site' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /Shop/ }).waitFor();
    const site = await env.gql<{ site: { name: string; domain: string | null } }>(
      'query ($id: ID!) { site(id: $id) { name domain } }',
      { id: siteId },
    );
    expect(site.data!.site).toEqual({ name: 'Shop', domain: null });
  });

  it('creates a form on the site and lists it with its code and counts', async () => {
    await page.getByRole('row', { name: /Shop/ }).getByRole('link', { name: 'Shop' }).click();
    await expectHeading(page, 'Forms');
    expect(new URL(page.url()).pathname).toBe(`/sites/${siteId}/forms`);
    await atBothWidths(page, () => checkAccessibility(page, 'forms page, empty'));
    await page.getByRole('button', { name: 'New form' }).click();
    const dialog = page.getByRole('dialog', { name: 'New form' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Contact');
    await checkAccessibility(page, 'new form dialog');
    await dialog.getByRole('button', { name: 'Create form' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const forms = await env.gql<{ forms: FormRow[] }>('query ($siteId: ID!) { forms(siteId: $siteId) { id code } }', {
      siteId,
    });
    expect(forms.data!.forms).toHaveLength(1);
    form = (await formById(forms.data!.forms[0]!.id))!;
    const row = page.getByRole('row', { name: /Contact/ });
    await row.getByText(form.code).waitFor();
    await expect(row.getByText('Enabled').isVisible()).resolves.toBe(true);
    await expect(row.getByText('None yet').isVisible()).resolves.toBe(true);

    // A submission shows in the counts of the form and of the site.
    const answer = await env.sendSubmission(siteId, form.code, { name: 'Ada', message: 'Hello' });
    expect(answer.status).toBe(201);
    await page.reload();
    await expectHeading(page, 'Forms');
    const cells = await page
      .getByRole('row', { name: /Contact/ })
      .getByRole('cell')
      .allInnerTexts();
    expect(cells).toContain('1');
    expect(cells).not.toContain('None yet');
    await atBothWidths(page, () => checkAccessibility(page, 'forms page with a form'));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await expectHeading(page, 'Sites');
    // The list may show the cached counts first and the fresh ones a moment later.
    const ones = async () =>
      (await page.getByRole('row', { name: /Shop/ }).getByRole('cell').allInnerTexts()).filter((text) => text === '1')
        .length;
    await expect(eventually(ones, 2, 10_000)).resolves.toBe(2);
  });

  it('edits every setting of the form and keeps them', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms`);
    await page
      .getByRole('row', { name: /Contact/ })
      .getByRole('link', { name: 'Settings' })
      .click();
    await expectHeading(page, 'Form settings');
    await atBothWidths(page, () => checkAccessibility(page, 'form settings'));

    // The 12 types, labelled for people, all allowed by default; the service maximum is shown.
    const types = page.getByRole('group', { name: 'Allowed file types' }).getByRole('checkbox');
    await page.getByRole('checkbox', { name: 'PDF document' }).waitFor();
    await expect(types.count()).resolves.toBe(12);
    await expect(page.getByRole('checkbox', { name: 'PDF document' }).isChecked()).resolves.toBe(true);
    await page.getByText('at most 10 MiB').waitFor();

    // A bad address: the API's error next to the field, nothing saved.
    await page.getByRole('textbox', { name: 'Notification e-mails' }).fill('ops@example.com\nnot-an-address');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/invalid e-mail address/).waitFor();
    await checkAccessibility(page, 'form settings with an error');
    expect((await formById(form.id))!.notifyEmails).toEqual([]);

    await page.getByRole('textbox', { name: 'Name' }).fill('Contact us');
    await page.getByRole('switch', { name: 'Accepts submissions' }).uncheck();
    for (const label of await types.all()) {
      await label.uncheck();
    }
    await page.getByRole('checkbox', { name: 'PDF document' }).check();
    await page.getByRole('checkbox', { name: 'JPEG image' }).check();
    await page.getByRole('textbox', { name: 'Maximum file size (MiB)' }).fill('2');
    await page.getByRole('textbox', { name: 'Notification e-mails' }).fill('ops@example.com\nsales@example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();

    const saved = (await formById(form.id))!;
    expect(saved).toMatchObject({
      name: 'Contact us',
      enabled: false,
      maxFileSize: 2 * 1024 * 1024,
      notifyEmails: ['ops@example.com', 'sales@example.com'],
      usesDefaultMimeTypes: false,
    });
    expect([...saved.allowedMimeTypes].sort()).toEqual(['application/pdf', 'image/jpeg']);

    // A reload shows what was stored.
    await page.reload();
    await expectHeading(page, 'Form settings');
    await expect(page.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Contact us');
    await expect(page.getByRole('switch', { name: 'Accepts submissions' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('checkbox', { name: 'PDF document' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Word document (DOCX)' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('textbox', { name: 'Maximum file size (MiB)' }).inputValue()).resolves.toBe('2');

    // Every type again and the service maximum: back to the defaults.
    for (const label of await types.all()) {
      await label.check();
    }
    await page.getByRole('button', { name: 'Use the service maximum' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await expect(eventually(async () => (await formById(form.id))!.usesDefaultMimeTypes, true)).resolves.toBe(true);
    expect((await formById(form.id))!.maxFileSize).toBe(10 * 1024 * 1024);
  });

  it('on a phone, keeps Save settings in view and the focus on it after saving', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${env.url}/sites/${siteId}/forms/${form.id}/settings`);
    await expectHeading(page, 'Form settings');
    const save = page.getByRole('button', { name: 'Save settings' });
    // At the top of a long page, the button is on screen without scrolling to the end.
    const box = (await save.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORTS.phone.height);
    await page.getByRole('textbox', { name: 'Name' }).fill('Contact us!');
    await save.click();
    await page.getByText('Settings saved').waitFor();
    await expect(eventually(async () => (await formById(form.id))!.name, 'Contact us!')).resolves.toBe('Contact us!');
    const focused = () => save.evaluate((button) => button === document.activeElement);
    await expect(eventually(focused, true)).resolves.toBe(true);
    // (The notification lies over the bar for a few seconds: Enter in a field saves too.)
    await page.getByRole('textbox', { name: 'Name' }).fill('Contact us');
    await page.getByRole('textbox', { name: 'Name' }).press('Enter');
    await expect(eventually(async () => (await formById(form.id))!.name, 'Contact us')).resolves.toBe('Contact us');
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('reloads a deep link into the same page', async () => {
    for (const [path, heading] of [
      [`/sites/${siteId}/forms/${form.id}/settings`, 'Form settings'],
      [`/sites/${siteId}/forms/${form.id}`, 'Submissions'],
      [`/sites/${siteId}/forms/${form.id}/webhooks`, 'Webhooks'],
      [`/sites/${siteId}/api`, 'API'],
      [`/sites/${siteId}/forms`, 'Forms'],
    ] as const) {
      await page.goto(`${env.url}${path}`);
      await expectHeading(page, heading);
      await page.reload();
      await expectHeading(page, heading);
      expect(new URL(page.url()).pathname).toBe(path);
    }
  });

  it('shows stored HTML-safe names as text, decoded once', async () => {
    const created = await env.gql<{ createSite: { id: string } }>(
      'mutation { createSite(input: { name: "R&amp;D &lt;b&gt;lab&lt;/b&gt; &amp;amp;" }) { id } }',
    );
    const id = created.data!.createSite.id;
    await page.goto(`${env.url}/sites`);
    const link = page.getByRole('link', { name: 'R&D <b>lab</b> &amp;', exact: true });
    await link.waitFor();
    // Text, not markup: no <b> element was made from the name.
    await expect(page.locator('table b').count()).resolves.toBe(0);
    await link.click();
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('R&D <b>lab</b> &amp;').waitFor();
    await env.gql('mutation ($id: ID!) { deleteSite(id: $id) }', { id });
  });

  it('deletes the form, then the site, through the confirmation dialog', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms`);
    await page
      .getByRole('row', { name: /Contact us/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    const formDialog = page.getByRole('dialog', { name: 'Delete form Contact us?' });
    await formDialog.waitFor();
    await checkAccessibility(page, 'delete form dialog');
    await formDialog.getByRole('button', { name: 'Delete form' }).click();
    await page.getByText('This site has no forms yet').waitFor();
    await expect(formById(form.id)).resolves.toBeNull();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('row', { name: /Shop/ }).getByRole('button', { name: 'Delete' }).click();
    const siteDialog = page.getByRole('dialog', { name: 'Delete site Shop?' });
    // waitFor, not isVisible(): the dialog opens with a transition, and isVisible() does not wait.
    await siteDialog.getByText('stop accepting submissions at once').waitFor();
    // Cancel keeps it.
    await siteDialog.getByRole('button', { name: 'Cancel' }).click();
    await siteDialog.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /Shop/ }).getByRole('button', { name: 'Delete' }).click();
    await siteDialog.getByRole('button', { name: 'Delete site' }).click();
    await page.getByText('No sites yet').waitFor();
    const site = await env.gql<{ site: unknown }>('query ($id: ID!) { site(id: $id) { id } }', { id: siteId });
    expect(site.data!.site).toBeNull();
  });
});
