// What the console tells a newcomer, in Chromium against a server without SMTP_URL: the form's
// settings and its Webhooks page say that nothing will be e-mailed; a search under three characters
// (inbox and erasure) shows only its hint, not the count of the last search; a locked-out sign-in
// says when to try again.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { graphqlRequest } from '@intake/shared/test';
import type { Page } from 'playwright-core';
import {
  describeConsole,
  describedBy,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const NO_SMTP =
  'E-mail is not configured on this server (SMTP_URL is unset): notification e-mails are not sent until the operator sets SMTP_URL and restarts the service.';

describeConsole('console: hints for a newcomer', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId } = await env.createSiteAndForm('Acme Shop', 'Contact', ['team@example.com']));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('says where the addresses are set, and on the Webhooks page, that no e-mail will be sent', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/settings`);
    await expectHeading(page, 'Form settings');
    await page.getByText(NO_SMTP, { exact: false }).waitFor();
    await page.getByRole('textbox', { name: 'Notification e-mails' }).waitFor();

    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    await page.getByText(NO_SMTP, { exact: false }).waitFor();
    await page.getByText('New submissions would be e-mailed to team@example.com.').waitFor();
    expect(await page.getByText(/Each new submission is e-mailed/).count()).toBe(0);
  });

  it('inbox: a search under three characters shows only its hint, not the last search’s count', async () => {
    const search = page.getByRole('searchbox', { name: 'Search submissions' });
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}`);
    await expectHeading(page, 'Submissions');
    await search.fill('nobody here');
    await search.press('Enter');
    await page
      .getByTestId('submission-count')
      .filter({ hasText: /^0 matching submissions$/ })
      .waitFor();

    await search.fill('ab');
    await search.press('Enter');
    await expect(describedBy(search)).resolves.toContain('Type at least 3 characters');
    await page.getByTestId('submission-count').waitFor({ state: 'detached' });
    expect(await page.getByText('No submissions match these filters.').count()).toBe(0);

    // The same from a link that holds a short query.
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}?q=ab`);
    await expectHeading(page, 'Submissions');
    await expect(describedBy(search)).resolves.toContain('Type at least 3 characters');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('submission-count').count()).toBe(0);
  });

  it('erasure: a value under three characters shows only its hint, not the last search’s answer', async () => {
    await page.goto(`${env.url}/erasure`);
    await expectHeading(page, 'Erase personal data');
    const value = page.getByRole('textbox', { name: 'Value to find' });
    await value.fill('nobody@example.com');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText('No submission holds this value.').waitFor();
    await value.fill('ab');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(describedBy(value)).resolves.toContain('Enter at least 3 characters');
    await page.getByText('No submission holds this value.').waitFor({ state: 'detached' });
  });

  it('a locked-out sign-in says when to try again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const email = 'someone@example.com';
    let retryAfter: unknown;
    for (let attempt = 0; attempt < 12 && retryAfter === undefined; attempt += 1) {
      const result = await graphqlRequest(
        env.url,
        'mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
        { email, password: 'wrong password' },
      );
      retryAfter = result.errors?.[0]?.extensions?.retryAfter;
    }
    expect(typeof retryAfter).toBe('number');

    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Try again in \d+ minutes? \(at \d{1,2}:\d{2}/);
    expect(await alert.innerText()).not.toContain('later');
    // The refused sign-in is a 429, which Chromium logs as a failed resource: expected here.
    const expected = env.problems.filter((problem) => /status of 429/.test(problem));
    expect(expected.length).toBe(1);
    env.problems.splice(0, env.problems.length, ...env.problems.filter((problem) => !expected.includes(problem)));
  });
});
