// Two members working the same site in two browsers (issue #36, item 4): each sees, within a second
// and without reloading, a submission that arrives through the gateway and the other's status and
// note, pushed over Server-Sent Events (the views poll only while the stream is down, every 3 to
// 5 s, so a view that follows within a second was told).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { describeConsole, expectHeading, signIn, startConsole, type ConsoleEnvironment } from './harness.js';

// Pushed changes arrived in 0.3 to 0.75 s here with a load average of 10 on 2 cores, within the
// issue's second. The bound leaves room for a loaded CI run and stays under the views' fastest poll
// (3 s, and only while the stream is down): a view that followed sooner was pushed to.
const PUSHED_WITHIN_MS = 2500;

const CREATE_MEMBER = 'mutation($input: CreateMemberInput!) { createMember(input: $input) { password } }';

/** Waits for `locator` and answers how long it took, in ms. */
async function msUntil(locator: Locator): Promise<number> {
  const started = Date.now();
  await locator.waitFor({ timeout: 10_000 });
  return Date.now() - started;
}

/** Polls `check` until it holds (10 s at most) and answers how long it took, in ms. */
async function msUntilTrue(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 10_000) {
      throw new Error('never came true');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describeConsole('console: live updates between two members', () => {
  let env: ConsoleEnvironment;
  let site: { siteId: string; formId: string; formCode: string };
  let ada: Page;
  let bob: Page;

  async function signInAs(page: Page, email: string): Promise<void> {
    const created = await env.gql(CREATE_MEMBER, {
      input: { email, name: email, role: 'member', grants: [{ siteId: site.siteId, level: 'manage' }] },
    });
    expect(created.errors).toBeUndefined();
    await signIn(page, env.url, { email, password: created.data!.createMember.password });
  }

  const inbox = () => `${env.url}/sites/${site.siteId}/forms/${site.formId}`;
  const counts = (page: Page, text: RegExp) => page.getByTestId('status-counts').getByText(text);

  beforeAll(async () => {
    env = await startConsole();
    site = await env.createSiteAndForm('Front desk');
    ada = await env.newPage();
    bob = await (await env.newBrowser()).newPage();
    await signInAs(ada, 'ada@example.com');
    await signInAs(bob, 'bob@example.com');
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('shows both a submission that arrives, then each the other’s status and note, at once', async () => {
    for (const page of [ada, bob]) {
      await page.goto(inbox());
      await expectHeading(page, 'Submissions');
      await counts(page, /^New 0 · Open 0/).waitFor();
    }
    // Both streams open before anything happens.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const sent = await env.sendSubmission(site.siteId, site.formCode, { name: 'Cleo', request: 'A call back' });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    const arrived = await Promise.all([ada, bob].map((page) => msUntil(counts(page, /^New 1 · Open 0/))));
    expect(Math.max(...arrived)).toBeLessThan(PUSHED_WITHIN_MS);
    await msUntil(bob.getByText('Cleo').first());

    // Ada works the submission; Bob's inbox follows.
    await ada.goto(`${inbox()}/submissions/${id}`);
    await expectHeading(ada, 'Submission');
    const adaSection = ada.getByRole('region', { name: 'Status and notes' });
    await adaSection.getByText('No notes yet.').waitFor();
    await adaSection.getByRole('combobox', { name: 'Status' }).selectOption('done');
    await ada.getByText('Status: Done').waitFor();
    expect(await msUntil(counts(bob, /^New 0 · Open 0 · Done 1/))).toBeLessThan(PUSHED_WITHIN_MS);

    // Bob opens it too; Ada's note, and Bob's status change, show on the other's page.
    await bob.goto(`${inbox()}/submissions/${id}`);
    await expectHeading(bob, 'Submission');
    const bobSection = bob.getByRole('region', { name: 'Status and notes' });
    await bobSection.getByText('No notes yet.').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await adaSection.getByRole('textbox', { name: 'Note' }).fill('Called back on Tuesday');
    await adaSection.getByRole('button', { name: 'Add note' }).click();
    await adaSection.getByText('Called back on Tuesday').waitFor();
    expect(await msUntil(bobSection.getByText('Called back on Tuesday'))).toBeLessThan(PUSHED_WITHIN_MS);

    await bobSection.getByRole('combobox', { name: 'Status' }).selectOption('open');
    await bob.getByText('Status: Open').waitFor();
    const adaStatus = adaSection.getByRole('combobox', { name: 'Status' });
    expect(await msUntilTrue(async () => (await adaStatus.inputValue()) === 'open')).toBeLessThan(PUSHED_WITHIN_MS);
  });

  it('shares one stream among the tabs of a browser, and another tab takes it over when its tab closes', async () => {
    const streams = new Set<string>();
    const adaTab = await env.newPage();
    adaTab.on('request', (request) => {
      if (request.url().endsWith('/events')) {
        streams.add(request.url());
      }
    });
    await adaTab.goto(inbox());
    await expectHeading(adaTab, 'Submissions');
    await counts(adaTab, /Open 1 · Done 0/).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Ada's first tab holds the stream; this one hears through it.
    expect(streams.size).toBe(0);

    const bobStatus = bob.getByRole('region', { name: 'Status and notes' }).getByRole('combobox', { name: 'Status' });
    await bobStatus.selectOption('done');
    await bob.getByText('Status: Done').waitFor();
    expect(await msUntil(counts(adaTab, /Open 0 · Done 1/))).toBeLessThan(PUSHED_WITHIN_MS);

    // Ada closes her first tab: this one opens the stream and still follows Bob.
    await ada.close();
    await msUntilTrue(async () => streams.size > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await bobStatus.selectOption('new');
    await bob.getByText('Status: New').waitFor();
    expect(await msUntil(counts(adaTab, /^New 1 · Open 0 · Done 0/))).toBeLessThan(PUSHED_WITHIN_MS);
  });
});
