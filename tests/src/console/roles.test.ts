// A role-aware console in Chromium: a member who reads one site is shown that site only, and nothing
// they may not do (no New site, no settings, webhooks or API view, no delete, no team pages); a page
// they reach by its address says it is not theirs instead of failing. A member who manages a site
// is offered its changes.
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

const CREATE_MEMBER = 'mutation($input: CreateMemberInput!) { createMember(input: $input) { password } }';

describeConsole('console: what each role is offered', () => {
  let env: ConsoleEnvironment;
  let shop: { siteId: string; formId: string; formCode: string };
  let blog: { siteId: string; formId: string; formCode: string };

  async function signInAs(email: string, level: 'read' | 'manage'): Promise<Page> {
    const created = await env.gql(CREATE_MEMBER, {
      input: { email, name: email, role: 'member', grants: [{ siteId: shop.siteId, level }] },
    });
    expect(created.errors).toBeUndefined();
    await env.context.clearCookies();
    const page = await env.newPage();
    await signIn(page, env.url, { email, password: created.data!.createMember.password });
    return page;
  }

  const count = (page: Page, role: Parameters<Page['getByRole']>[0], name: string) =>
    page.getByRole(role, { name, exact: true }).count();

  beforeAll(async () => {
    env = await startConsole();
    shop = await env.createSiteAndForm('Shop');
    blog = await env.createSiteAndForm('Blog');
    const sent = await env.sendSubmission(shop.siteId, shop.formCode, { email: 'buyer@example.com', message: 'Hi' });
    expect(sent.status).toBe(201);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('shows a read member their granted site only, and nothing they may not do', async () => {
    const page = await signInAs('reader@example.com', 'read');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Sites' }).waitFor();
    const links = (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim());
    expect(links).toEqual(['Sites', 'API tokens', 'Your account', 'Two-factor sign-in']);

    // Sites: Shop only, to open; no New site, no Edit, API or Delete.
    const shopRow = page.getByRole('row', { name: /Shop/ });
    await shopRow.waitFor();
    await expect(page.getByRole('row', { name: /Blog/ }).count()).resolves.toBe(0);
    await expect(count(page, 'button', 'New site')).resolves.toBe(0);
    for (const name of ['Edit', 'Delete', 'API']) {
      await expect(shopRow.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      await expect(shopRow.getByRole('link', { name, exact: true }).count()).resolves.toBe(0);
    }
    await atBothWidths(page, () => checkAccessibility(page, 'sites for a read member'));

    // The site: its forms, no New form, no API view, no form settings, webhooks or delete.
    await shopRow.getByRole('link', { name: 'Shop' }).click();
    await expectHeading(page, 'Forms');
    await expect(
      page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'API' }).count(),
    ).resolves.toBe(0);
    await expect(count(page, 'button', 'New form')).resolves.toBe(0);
    const formRow = page.getByRole('row', { name: /Contact/ });
    for (const name of ['Webhooks', 'Settings', 'Delete']) {
      await expect(formRow.getByRole('link', { name, exact: true }).count()).resolves.toBe(0);
      await expect(formRow.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
    }
    await atBothWidths(page, () => checkAccessibility(page, 'forms for a read member'));

    // The form: its submissions to read, none to delete; no Webhooks or Settings tab.
    await formRow.getByRole('link', { name: 'Contact' }).click();
    await expectHeading(page, 'Submissions');
    const formNav = page.getByRole('navigation', { name: 'Form' });
    await formNav.getByRole('link', { name: 'Submissions' }).waitFor();
    expect((await formNav.getByRole('link').allInnerTexts()).map((text) => text.trim())).toEqual([
      'Submissions',
      'Spam (0)',
    ]);
    const submission = page.getByRole('row', { name: /buyer@example\.com/ });
    await submission.waitFor();
    await expect(submission.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    await atBothWidths(page, () => checkAccessibility(page, 'submissions for a read member'));
    await submission.getByRole('link').first().click();
    await expectHeading(page, 'Submission');
    await page.getByText('buyer@example.com').first().waitFor();
    await expect(count(page, 'button', 'Delete')).resolves.toBe(0);

    // Pages that are not theirs, opened by their address, say so.
    for (const [path, text] of [
      [`/sites/${shop.siteId}/api`, 'You may read this site but not change it'],
      [`/sites/${shop.siteId}/forms/${shop.formId}/settings`, 'You may read this site but not change it'],
      [`/sites/${shop.siteId}/forms/${shop.formId}/webhooks`, 'You may read this site but not change it'],
      ['/members', "for the team's owners and admins"],
      ['/audit-log', "for the team's owners and admins"],
      ['/erasure', "for the team's owners and admins"],
      ['/overview', "for the team's owners and admins"],
    ] as const) {
      await page.goto(`${env.url}${path}`);
      await page.getByRole('alert').filter({ hasText: text }).waitFor();
    }
    // Another site is as if it did not exist.
    await page.goto(`${env.url}/sites/${blog.siteId}/forms`);
    await page.getByRole('alert').filter({ hasText: 'There is no such site' }).waitFor();
    await page.close();
    await env.context.clearCookies();
  });

  it('offers a member who manages a site its forms, settings, webhooks and API view, but no new site', async () => {
    const page = await signInAs('manager@example.com', 'manage');
    const shopRow = page.getByRole('row', { name: /Shop/ });
    await shopRow.getByRole('button', { name: 'Edit' }).waitFor();
    await expect(shopRow.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    await expect(count(page, 'button', 'New site')).resolves.toBe(0);
    await shopRow.getByRole('link', { name: 'API' }).click();
    await expectHeading(page, 'API');
    await page.getByRole('button', { name: 'Show token' }).waitFor();
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Forms' }).click();
    await expectHeading(page, 'Forms');
    await page.getByRole('button', { name: 'New form' }).waitFor();
    const formRow = page.getByRole('row', { name: /Contact/ });
    await formRow.getByRole('button', { name: 'Delete' }).waitFor();
    await formRow.getByRole('link', { name: 'Settings' }).click();
    await expectHeading(page, 'Form settings');
    await page.close();
    await env.context.clearCookies();
  });
});
