// Erasure on request and form retention in Chromium, with the real gateway: a person's e-mail
// address is found in two sites' submissions (any case), the preview shows where (site, form,
// fields) with every row chosen, one is unticked, `Erase selected` asks for confirmation, and the
// result lists what was erased; the other stays. A form's retention is set on its settings page,
// which then tells when the oldest submission goes.
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

describeConsole('console: erasure requests and form retention', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let shop: { siteId: string; formId: string; formCode: string };
  let blog: { siteId: string; formId: string; formCode: string };

  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
    });

  const emailsOf = async (formId: string): Promise<string[]> => {
    const result = await env.gql<{ submissions: { edges: { node: { data: { email: string } } }[] } }>(
      'query ($formId: ID!) { submissions(formId: $formId, first: 100) { edges { node { data } } } }',
      { formId },
    );
    return result.data!.submissions.edges.map((edge) => edge.node.data.email).sort();
  };

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    // Without a worker the notification e-mail stays in the outbox, pending: erasure removes it.
    shop = await env.createSiteAndForm('Acme Shop', 'Contact', ['office@example.com']);
    blog = await env.createSiteAndForm('Old Blog', 'Newsletter');
    // Two submissions to one form within a second: the preview must still tell them apart.
    for (const email of ['twin@example.com', 'twin@example.com']) {
      expect((await env.sendSubmission(shop.siteId, shop.formCode, { email })).status).toBe(201);
    }
    const withFile = new FormData();
    withFile.append('email', 'grace.hopper@example.com');
    withFile.append('message', 'Please call me back');
    withFile.append('cv', new Blob(['COBOL, compilers.\n'], { type: 'text/plain' }), 'cv.txt');
    for (const response of [
      await env.sendSubmission(shop.siteId, shop.formCode, withFile),
      await env.sendSubmission(blog.siteId, blog.formCode, { email: 'GRACE.HOPPER@example.com' }),
      await env.sendSubmission(shop.siteId, shop.formCode, { email: 'someone.else@example.com' }),
    ]) {
      expect(response.status).toBe(201);
    }
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('previews the submissions holding an e-mail address and erases the chosen ones after confirmation', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Erasure requests' }).click();
    await expectHeading(page, 'Erase personal data');
    const value = page.getByRole('textbox', { name: 'Value to find' });
    await accessible('erasure page');

    await value.fill('ab');
    await page.getByRole('button', { name: 'Find' }).click();
    await eventually(async () => /at least 3 characters/.test(await describedBy(value)), true);

    // Rows alike in site, form, field and minute differ by their seconds or their id.
    await value.fill('twin@example.com');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText('2 submissions hold this value.').waitFor();
    const twins = await page
      .getByRole('checkbox', { name: /^Erase the submission / })
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label')));
    expect(new Set(twins).size).toBe(2);

    await value.fill(' Grace.Hopper@Example.com ');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('row', { name: /Old Blog/ }).waitFor();
    await page.getByText('2 submissions hold this value.').waitFor();
    const shopRow = page.getByRole('row', { name: /Acme Shop/ });
    const blogRow = page.getByRole('row', { name: /Old Blog/ });
    await shopRow.getByText('Contact').waitFor();
    await blogRow.getByText('Newsletter').waitFor();
    expect(await shopRow.getByRole('cell', { name: 'email', exact: true }).count()).toBe(1);
    // The preview says where the value is, not what else the person wrote.
    expect(await page.getByText('Please call me back').count()).toBe(0);
    expect(await shopRow.getByRole('checkbox').isChecked()).toBe(true);
    expect(await blogRow.getByRole('checkbox').isChecked()).toBe(true);
    await accessible('erasure preview');

    await blogRow.getByRole('checkbox').uncheck();
    await page.getByText('1 submission chosen').waitFor();

    await page.getByRole('button', { name: 'Erase selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase 1 submission?' });
    await dialog.getByText('cannot be undone').waitFor();
    await dialog.getByRole('button', { name: 'Erase' }).click();
    const result = page.getByTestId('erasure-result');
    await result.getByText('1 submission erased, with 1 file and 1 delivery.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await result.getByRole('list', { name: 'Erased submissions' }).getByRole('listitem').count()).toBe(1);
    await accessible('erasure result');

    expect(await emailsOf(shop.formId)).toEqual(['someone.else@example.com', 'twin@example.com', 'twin@example.com']);
    expect(await emailsOf(blog.formId)).toEqual(['GRACE.HOPPER@example.com']);
    // Searching again finds only the one left.
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText('1 submission holds this value.').waitFor();
    await page.getByRole('row', { name: /Old Blog/ }).waitFor();
    expect(await page.getByRole('row', { name: /Acme Shop/ }).count()).toBe(0);
  });

  it('sets a form retention and tells when its oldest submission will be deleted', async () => {
    await page.goto(`${env.url}/sites/${shop.siteId}/forms/${shop.formId}/settings`);
    await expectHeading(page, 'Form settings');
    const days = page.getByRole('textbox', { name: 'Keep submissions for (days)' });
    const line = page.getByTestId('retention-next-deletion');
    await eventually(() => line.innerText(), 'Submissions are kept until someone deletes them.');
    expect(await days.inputValue()).toBe('');

    await days.fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const stored = await env.gql<{ form: { retentionDays: number; retentionNextDeletionAt: string } }>(
      'query ($id: ID!) { form(id: $id) { retentionDays retentionNextDeletionAt } }',
      { id: shop.formId },
    );
    expect(stored.data!.form.retentionDays).toBe(30);
    // The date as the browser writes it, in its own locale.
    const date = await page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso)),
      stored.data!.form.retentionNextDeletionAt,
    );
    await eventually(() => line.innerText(), `The oldest submission will be deleted on ${date}.`);
    await page.getByRole('heading', { name: 'Retention' }).waitFor();
    await accessible('form settings with retention');

    await days.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await eventually(() => line.innerText(), 'Submissions are kept until someone deletes them.');
    const cleared = await env.gql<{ form: { retentionDays: number | null } }>(
      'query ($id: ID!) { form(id: $id) { retentionDays } }',
      { id: shop.formId },
    );
    expect(cleared.data!.form.retentionDays).toBeNull();
  });
});
