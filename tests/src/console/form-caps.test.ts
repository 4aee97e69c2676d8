// A form's cap and schedule in Chromium (docs/submissions.md#caps-and-a-schedule): a cap of one set
// in the settings' Cap and schedule card, one submission through the real gateway fills it, the
// next is refused with form_closed, and the settings and the forms list show the form as full.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  describedBy,
  eventually,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: the cap and schedule of a form', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('sets a cap, and shows the form as full once the gateway has taken it', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/settings`);
    await expectHeading(page, 'Form settings');
    await page.getByRole('heading', { name: 'Cap and schedule' }).waitFor();
    // A closing before the opening is said next to the closing; nothing is sent.
    await page.getByRole('textbox', { name: 'Opens at' }).fill('2031-01-01T09:00');
    await page.getByRole('textbox', { name: 'Closes at' }).fill('2030-01-01T09:00');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await eventually(
      () => describedBy(page.getByRole('textbox', { name: 'Closes at' })),
      'Choose a closing time after the opening time',
    );
    await page.getByRole('textbox', { name: 'Opens at' }).fill('');
    await page.getByRole('textbox', { name: 'Closes at' }).fill('');
    await page.getByRole('textbox', { name: 'Most submissions', exact: true }).fill('1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await page.getByText('0 of 1 submissions taken', { exact: false }).waitFor();

    expect((await env.sendSubmission(siteId, formCode, { message: 'first' })).status).toBe(201);
    const refused = await env.sendSubmission(siteId, formCode, { message: 'second' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'form_closed', reason: 'full' });

    await page.reload();
    await page.getByText('1 of 1 submissions taken', { exact: false }).waitFor();
    await page.getByTestId('form-closed').filter({ hasText: 'Full' }).waitFor();
    await atBothWidths(page, async () => {
      await checkAccessibility(page, 'form settings of a full form');
    });

    await page.goto(`${env.url}/sites/${siteId}/forms`);
    await expectHeading(page, 'Forms');
    const badge = page.getByRole('row', { name: /Contact|Acme/ }).getByTestId('form-closed');
    await badge.first().waitFor();
    expect(await badge.first().textContent()).toBe('Full');
    await atBothWidths(page, async (width) => {
      await checkAccessibility(page, 'forms list with a full form');
      await page.screenshot({ path: `/tmp/form-caps-${width}.png`, fullPage: true });
    });
  });
});
