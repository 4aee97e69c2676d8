// The Overview in Chromium against the real gateway: submissions sent to two forms and refusals of
// two kinds show as charts whose names and tables carry the numbers; the refusals arrive once the
// gateway has written its counts (every 5 s); accessible at both widths, no horizontal scroll.
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
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: the Overview', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  const formIds: Record<string, string> = {};
  const codes: Record<string, string> = {};
  const today = new Date().toISOString().slice(0, 10);

  const chartName = (name: string) =>
    page.getByRole('img', { name: new RegExp(`^${name}: `) }).getAttribute('aria-label');
  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
    });

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    const site = await env.gql<{ createSite: { id: string } }>(
      'mutation { createSite(input: { name: "Acme Shop" }) { id } }',
    );
    siteId = site.data!.createSite.id;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('says there is nothing yet, accessibly', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await expectHeading(page, 'Overview');
    await page.getByText('No submissions in this period.').waitFor();
    await page.getByText('No refusals in this period.').waitFor();
    await accessible('empty overview');
  });

  it('charts submissions per form and refusals per code, with the numbers as text', async () => {
    for (const name of ['Orders', 'Contact']) {
      const form = await env.gql<{ createForm: { code: string; id: string } }>(
        'mutation ($siteId: ID!, $name: String!) { createForm(input: { siteId: $siteId, name: $name }) { code id } }',
        { siteId, name },
      );
      codes[name] = form.data!.createForm.code;
      formIds[name] = form.data!.createForm.id;
    }
    for (const name of ['Orders', 'Orders', 'Orders', 'Contact']) {
      expect((await env.sendSubmission(siteId, codes[name]!, { message: 'hello' })).status).toBe(201);
    }
    const refuse = (headers: Record<string, string>) =>
      fetch(`${env.gatewayUrl}/api/v1/send/${codes.Orders}`, { method: 'POST', headers, body: '{}' });
    for (const headers of [
      { 'X-KEY-SERVICE': 'wrong' },
      { 'X-KEY-SERVICE': 'wrong' },
      { 'X-KEY-SERVICE': env.apiKey },
    ]) {
      expect((await refuse(headers)).status).toBeGreaterThanOrEqual(400);
    }

    await page.reload();
    await expectHeading(page, 'Overview');
    expect(await chartName('Submissions to Orders')).toBe(`Submissions to Orders: 3 in 30 days, most on ${today} (3)`);
    expect(await chartName('Submissions to Contact')).toBe(
      `Submissions to Contact: 1 in 30 days, most on ${today} (1)`,
    );
    // The gateway writes its refusal counts every 5 seconds; the page refreshes every 30.
    const refusalChart = await eventually(
      async () => {
        await page.reload();
        await expectHeading(page, 'Overview');
        return (await page.getByRole('img', { name: /^Refusals with/ }).count()) === 2
          ? chartName('Refusals with api_key_invalid')
          : null;
      },
      `Refusals with api_key_invalid: 2 in 30 days, most on ${today} (2)`,
      15_000,
    );
    expect(refusalChart).toBe(`Refusals with api_key_invalid: 2 in 30 days, most on ${today} (2)`);
    expect(await chartName('Refusals with token_missing')).toBe(
      `Refusals with token_missing: 1 in 30 days, most on ${today} (1)`,
    );
    await page.getByText('Site token missing').waitFor();

    // The busiest form first; each title links to its inbox.
    const formLinks = page.getByRole('region', { name: 'Submissions per form' }).getByRole('link');
    expect(await formLinks.allInnerTexts()).toEqual(['Orders', 'Contact']);
    await accessible('overview with charts');

    const toggle = page.getByRole('button', { name: 'Show as table: Submissions to Orders' });
    await toggle.click();
    const table = page.getByRole('table', { name: 'Submissions to Orders per day (UTC)' });
    expect(await table.getByRole('row').count()).toBe(31);
    expect(await table.getByRole('row', { name: today }).getByRole('cell').innerText()).toBe('3');
    expect(
      await page.getByRole('button', { name: 'Hide table: Submissions to Orders' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await accessible('overview with a table shown');

    // Mantine's radios are hidden under their labels: a person clicks the label.
    await page.getByText('7 days', { exact: true }).click();
    expect(await page.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);
    await page.getByRole('img', { name: /^Submissions to Orders: 3 in 7 days/ }).waitFor();

    await formLinks.first().click();
    await expectHeading(page, 'Submissions');
  });

  it('leads from the spam card to the spam of every form, most first, each to its Spam view', async () => {
    for (const name of ['Orders', 'Contact']) {
      const set = await env.gql(
        'mutation ($id: ID!) { updateForm(id: $id, input: { honeypotFields: ["website"] }) { id } }',
        {
          id: formIds[name],
        },
      );
      expect(set.errors).toBeUndefined();
    }
    for (const name of ['Contact', 'Contact', 'Orders']) {
      expect((await env.sendSubmission(siteId, codes[name]!, { website: 'https://spam.example' })).status).toBe(201);
    }
    await page.goto(`${env.url}/overview`);
    await expectHeading(page, 'Overview');
    await page.getByText('7 days', { exact: true }).click();
    await page.getByRole('link', { name: 'Spam, all forms' }).click();
    await expectHeading(page, 'Spam, all forms');
    expect(await page.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);
    const table = page.getByRole('table', { name: 'Spam per form over the last 7 days (UTC)' });
    await table.waitFor();
    const rows = table.locator('tbody').getByRole('row');
    expect(await rows.allInnerTexts()).toEqual(['Contact\tAcme Shop\t2', 'Orders\tAcme Shop\t1']);
    await accessible('spam, all forms');
    await table.getByRole('link', { name: 'Contact' }).click();
    await expectHeading(page, 'Spam');
    expect(new URL(page.url()).pathname).toBe(`/sites/${siteId}/forms/${formIds.Contact}/spam`);
  });
});
