// Browser posting in the console (docs/static-sites.md): the form's Settings card turns it on with
// its origins and refuses to turn the challenge off unconfirmed; the API page then lists the HTML
// form to paste, which holds no token. Accessible at both widths.
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

describeConsole('console: browser posting', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let ids: { siteId: string; formId: string; formCode: string };

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ids = await env.createSiteAndForm('Bakery');
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('turns browser posting on with its origins, and the challenge off only when confirmed', async () => {
    await page.goto(`${env.url}/sites/${ids.siteId}/forms/${ids.formId}/settings`);
    await expectHeading(page, 'Form settings');
    await page.getByRole('heading', { name: 'Browser posting' }).waitFor();
    await page.getByRole('checkbox', { name: "Take posts from visitors' browsers" }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Enter the origins of your pages, one a line').waitFor();
    const origins = page.getByRole('textbox', { name: 'Allowed origins' });
    await origins.fill('https://www.bakery.example/contact');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The API's own words, next to the field.
    await eventually(async () => /no path/.test(await describedBy(origins)), true);
    await origins.fill('https://WWW.bakery.example\nhttp://localhost:1313');
    await page.getByRole('combobox', { name: 'Challenge' }).selectOption('OFF');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Confirm that any script may then post to this form').waitFor();
    await page.getByRole('checkbox', { name: /I understand that any script/ }).check();
    await page.getByRole('textbox', { name: 'Thank-you title' }).fill('Danke');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    expect(await origins.inputValue()).toBe('https://www.bakery.example\nhttp://localhost:1313');
    const stored = await env.gql<{ form: Record<string, unknown> }>(
      'query ($id: ID!) { form(id: $id) { browserPosting browserOrigins browserChallenge browserTexts { title } } }',
      { id: ids.formId },
    );
    expect(stored.data!.form).toEqual({
      browserPosting: true,
      browserOrigins: ['https://www.bakery.example', 'http://localhost:1313'],
      browserChallenge: 'OFF',
      browserTexts: { title: 'Danke' },
    });
    await atBothWidths(page, () => checkAccessibility(page, 'form settings with browser posting'));
  });

  it('lists the HTML form to paste on the API page, without the site token', async () => {
    await page.goto(`${env.url}/sites/${ids.siteId}/api`);
    await expectHeading(page, 'API');
    await page.getByRole('heading', { name: 'HTML forms for static pages' }).waitFor();
    const snippet = await page.getByTestId('browser-form-html').innerText();
    expect(snippet).toContain(`<form action="${env.gatewayUrl}/api/v1/send/${ids.formCode}" method="post"`);
    expect(snippet).toContain(`<script src="${env.gatewayUrl}/browser/intake-form.js" defer></script>`);
    const view = await env.gql<{ siteApiView: { token: string } }>(
      'query ($id: ID!) { siteApiView(siteId: $id) { token } }',
      { id: ids.siteId },
    );
    expect(snippet).not.toContain(view.data!.siteApiView.token);
    expect(snippet).not.toContain(env.apiKey);
    await atBothWidths(page, () => checkAccessibility(page, 'API view with an HTML form'));
  });
});
