// The console's code by route in Chromium: the sign-in page fetches none of the signed-in pages'
// code, each page's chunk arrives when the page is opened, the first page of a deep link shows a
// spinner rather than the router's warning, and a chunk that cannot be fetched (a console left open
// across an upgrade asks for a file the new build no longer has) offers a reload that recovers.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

/** Texts found only in the code of one signed-in page each: webhooks, form settings, erasure, audit log. */
const PAGE_TEXTS = ['Rotate the signing secret?', 'Keep submissions for (days)', 'Erase selected', 'Apply filters'];

/** Every script the page fetches from the console's build, with its text, in order. */
function recordScripts(page: Page): { url: string; text: string }[] {
  const scripts: { url: string; text: string }[] = [];
  page.on('response', (response) => {
    if (/\/assets\/[^/]+\.js$/.test(new URL(response.url()).pathname) && response.ok()) {
      void response.text().then((text) => scripts.push({ url: response.url(), text }));
    }
  });
  return scripts;
}

describeConsole('console: code split by route', () => {
  let env: ConsoleEnvironment;
  let siteId: string;
  let formId: string;

  beforeAll(async () => {
    env = await startConsole();
    ({ siteId, formId } = await env.createSiteAndForm('Acme Shop'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it("loads none of the signed-in pages' code on the sign-in page; a page's chunk arrives when it is opened", async () => {
    const page = await env.newPage();
    const scripts = recordScripts(page);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') {
        warnings.push(message.text());
      }
    });

    await page.goto(`${env.url}/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).waitFor();
    await page.waitForLoadState('networkidle');
    const signInScripts = scripts.map((script) => script.url);
    expect(signInScripts.length).toBeGreaterThan(0);
    for (const text of PAGE_TEXTS) {
      expect({ text, in: scripts.filter((script) => script.text.includes(text)).map((script) => script.url) }).toEqual({
        text,
        in: [],
      });
    }

    await signIn(page, env.url);
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    await page.waitForLoadState('networkidle');
    expect(scripts.some((script) => script.text.includes('Rotate the signing secret?'))).toBe(true);
    // A deep link waits for its page's chunk behind the spinner, not with the router's warning.
    expect(warnings.filter((warning) => /HydrateFallback/.test(warning))).toEqual([]);
    await page.close();
  });

  it('offers a reload when a page’s chunk cannot be fetched, and the reload brings the page', async () => {
    const page = await env.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The refused chunk is logged as a failed resource: that is the case played here.
      if (message.type() === 'error' && !/status of (401|404)/.test(message.text())) {
        problems.push(`console error: ${message.text()}`);
      }
    });
    await signIn(page, env.url);
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}`);
    await expectHeading(page, 'Submissions');

    // As after an upgrade: the build this tab started from no longer has the Webhooks page's chunk.
    const webhooksChunk = /\/assets\/webhooks-page-[^/]+\.js$/;
    let refused = 0;
    await page.route(webhooksChunk, (route) => {
      refused += 1;
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found\n' });
    });
    await page.getByRole('navigation', { name: 'Form' }).getByRole('link', { name: 'Webhooks' }).click();
    await expectHeading(page, 'This page could not be loaded');
    await page.getByRole('alert').getByText('Reload to get the current version').waitFor();
    expect(refused).toBeGreaterThan(0);
    await checkAccessibility(page, 'a chunk that could not be fetched');

    await page.unroute(webhooksChunk);
    await page.getByRole('button', { name: 'Reload' }).click();
    await expectHeading(page, 'Webhooks');
    expect(page.url()).toBe(`${env.url}/sites/${siteId}/forms/${formId}/webhooks`);
    expect(problems).toEqual([]);
    await page.close();
  });
});
