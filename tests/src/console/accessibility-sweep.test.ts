// One axe sweep over every page of the console and every dialog a page opens, at 1440 and 375 px,
// with something on each (a site, a form, a submission, a second member), so a page's own test need
// not be the only one that checks it. Also the documentation the console links to: the header's
// Docs, each page's Help, and the docs pages themselves.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: every page and dialog, accessible at both widths', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let submissionId: string;

  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
    });

  /** Opens `path`, waits for its heading and checks it. */
  async function checkPage(path: string, heading: string): Promise<void> {
    await page.goto(`${env.url}${path}`);
    await expectHeading(page, heading);
    await accessible(`page ${heading} (${path})`);
  }

  /** Opens the dialog behind the button `opener` on the open page, checks it, and closes it. */
  async function checkDialog(opener: string, dialogName: string | RegExp): Promise<void> {
    await page.getByRole('button', { name: opener, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: dialogName });
    await dialog.waitFor();
    await accessible(`dialog ${String(dialogName)}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }

  beforeAll(async () => {
    env = await startConsole();
    let formCode: string;
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop', 'Contact'));
    const sent = await env.sendSubmission(siteId, formCode, { email: 'ada@example.com', message: 'Hello there' });
    expect(sent.status).toBe(201);
    submissionId = ((await sent.json()) as { id: string }).id;
    const member = await env.gql(
      'mutation($input: CreateMemberInput!) { createMember(input: $input) { member { id } } }',
      { input: { email: 'grace@example.com', name: 'Grace', role: 'member', grants: [{ siteId, level: 'read' }] } },
    );
    expect(member.errors).toBeUndefined();
    page = await env.newPage();
    await signIn(page, env.url);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('checks every page', async () => {
    const form = `/sites/${siteId}/forms/${formId}`;
    const pages: [string, string][] = [
      ['/overview', 'Overview'],
      ['/overview/spam', 'Spam, all forms'],
      ['/sites', 'Sites'],
      [`/sites/${siteId}/forms`, 'Forms'],
      [`/sites/${siteId}/api`, 'API'],
      [form, 'Submissions'],
      [`${form}/submissions/${submissionId}`, 'Submission'],
      [`${form}/webhooks`, 'Webhooks'],
      [`${form}/spam`, 'Spam'],
      [`${form}/settings`, 'Form settings'],
      ['/api-tokens', 'API tokens'],
      ['/members', 'Members'],
      ['/erasure', 'Erase personal data'],
      ['/audit-log', 'Audit log'],
      ['/account', 'Your account'],
      ['/account/two-factor', 'Two-factor sign-in'],
      ['/no-such-page', 'Page not found'],
    ];
    for (const [path, heading] of pages) {
      await checkPage(path, heading);
    }
  });

  it('checks every dialog a page opens', async () => {
    const form = `/sites/${siteId}/forms/${formId}`;
    await page.goto(`${env.url}/sites`);
    await expectHeading(page, 'Sites');
    await checkDialog('New site', 'New site');
    await page.goto(`${env.url}/sites/${siteId}/forms`);
    await expectHeading(page, 'Forms');
    await checkDialog('New form', 'New form');
    await page.goto(`${env.url}${form}`);
    await expectHeading(page, 'Submissions');
    await checkDialog('Export', /^Export/);
    await page.goto(`${env.url}${form}/submissions/${submissionId}`);
    await expectHeading(page, 'Submission');
    await checkDialog('Delete', /^Delete/);
    await page.goto(`${env.url}${form}/webhooks`);
    await expectHeading(page, 'Webhooks');
    await checkDialog('New webhook', 'New webhook');
    await page.goto(`${env.url}/api-tokens`);
    await expectHeading(page, 'API tokens');
    await checkDialog('New token', /token/i);
    await page.goto(`${env.url}/members`);
    await expectHeading(page, 'Members');
    await checkDialog('Invite member', /^Invite/);
    await checkDialog('Change access', /^Change access of/);
    await page.goto(`${env.url}/account`);
    await expectHeading(page, 'Your account');
    await checkDialog('Add a passkey', /passkey/i);
  });

  it("links the header's Docs and each page's Help to the documentation, which is accessible too", async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /^Docs: Intake documentation/ }).click(),
    ]);
    await docs.getByRole('heading', { level: 1, name: 'Intake' }).waitFor();
    expect(new URL(docs.url()).pathname).toBe('/docs/index.html');
    await docs.close();

    const [help] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Help: Webhooks (opens in a new tab)' }).click(),
    ]);
    await help.getByRole('heading', { level: 1, name: 'Webhooks and e-mail notifications' }).waitFor();
    expect(new URL(help.url()).pathname).toBe('/docs/webhooks.html');
    // A link between pages keeps working, anchor included.
    await help.getByRole('link', { name: 'Intake documentation' }).click();
    await help.getByRole('heading', { level: 1, name: 'Intake' }).waitFor();
    const previous = page;
    page = help;
    try {
      for (const path of ['/docs/index.html', '/docs/webhooks.html', '/docs/teams.html']) {
        await page.goto(`${env.url}${path}`);
        await atBothWidths(page, async (width) => {
          await checkAccessibility(page, `documentation ${path} (${width})`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect({ path, width, overflow }).toEqual({ path, width, overflow: 0 });
        });
      }
    } finally {
      page = previous;
      await help.close();
    }
  });
});
