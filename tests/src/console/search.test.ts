// Search and filters on a form's inbox in Chromium, with submissions sent through the real gateway:
// the search box finds a value whatever its case and accents (and `&` as typed), the count follows
// the filter, an empty result says so, the filter is in the URL and survives a reload, the date
// range and "Has files" narrow the list, Clear filters shows everything again. Past 1,000 the count
// says "More than 1,000" until asked to count all, and arrivals are still counted.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { searchIndexed } from '@intake/shared/test';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  describedBy,
  expectHeading,
  signIn,
  startConsole,
  VIEWPORTS,
  type ConsoleEnvironment,
} from './harness.js';

/** `YYYY-MM-DD` of the browser's day `days` from today (the browser and the test share a time zone). */
function localDay(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

describeConsole('console: search and filters on the inbox', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  const inboxUrl = () => `${env.url}/sites/${siteId}/forms/${formId}`;
  /** Waits for the count line to read `text`: the count comes in its own request, after the page. */
  const expectCount = (text: RegExp) => page.getByTestId('submission-count').filter({ hasText: text }).waitFor();
  const searchBox = () => page.getByRole('searchbox', { name: 'Search submissions' });
  /** Types `text` and presses Enter; a query long enough to send is applied once the URL holds it. */
  const search = async (text: string) => {
    await searchBox().fill(text);
    await searchBox().press('Enter');
    // The box shows the URL's query whenever that changes: typing the next query before this one
    // reached the URL would be undone.
    if (text.length >= 3) {
      await page.waitForURL((url) => url.searchParams.get('q') === text);
    }
  };
  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
      // 375 px: the filters wrap, nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    const created = await env.createSiteAndForm('Acme Shop');
    ({ siteId, formId } = created);
    const code = created.formCode;
    formCode = code;
    for (const body of [
      { name: 'Élodie Dupont', message: 'Bonjour' },
      { name: 'Marc Petit', company: 'Tom & Jerry' },
      { name: 'Ada Lovelace', address: { city: 'Zürich', lines: ['Flat 2'] } },
    ]) {
      expect((await env.sendSubmission(siteId, code, body)).status).toBe(201);
    }
    const withFile = new FormData();
    withFile.append('name', 'Grace Hopper');
    withFile.append('fichier', new Blob(['plain notes\n'], { type: 'text/plain' }), 'notes.txt');
    expect((await env.sendSubmission(siteId, code, withFile)).status).toBe(201);
    await searchIndexed(env.services.db, formId);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('finds a value whatever its case and accents, counts the matches, and keeps the search in the URL', async () => {
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await expectCount(/^4 submissions/);
    await accessible('inbox with filters');

    await search('ELODIE');
    await page.getByText(/^1 matching submission,/).waitFor();
    await page.getByRole('row', { name: /Élodie Dupont/ }).waitFor();
    expect(await page.getByRole('row', { name: /Ada Lovelace|Grace Hopper|Marc Petit/ }).count()).toBe(0);

    // A nested value, and `&` as typed (it is stored as `&amp;`).
    await search('zurich');
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
    await expectCount(/^1 matching submission/);
    await search('tom & jerry');
    await page.getByRole('row', { name: /Marc Petit/ }).waitFor();

    await page.reload();
    await expect(searchBox().inputValue()).resolves.toBe('tom & jerry');
    await page.getByRole('row', { name: /Marc Petit/ }).waitFor();
    await expectCount(/^1 matching submission/);

    await search('nobody here');
    await page.getByText('No submissions match these filters.').waitFor();
    await expectCount(/^0 matching submissions$/);
    await accessible('inbox, no match');
  });

  it('refuses a query under three characters in the box, without asking the API', async () => {
    await search('ab');
    await expect(describedBy(searchBox())).resolves.toContain('Type at least 3 characters');
    expect(new URL(page.url()).searchParams.get('q')).toBe('nobody here');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await expectCount(/^4 submissions/);
    // From no match to all four: another list, none of them new since it opened.
    await page.waitForTimeout(500);
    expect(await page.getByText(/new since you opened this page/).count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
  });

  it('stacks the filters in one column on a phone, each as wide as the form', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(inboxUrl());
    await expectCount(/^4 submissions/);
    const filters = page.getByRole('search', { name: 'Filter submissions' });
    const controls = [
      searchBox(),
      filters.getByRole('button', { name: 'Search' }),
      filters.getByLabel('From', { exact: true }),
      filters.getByLabel('To', { exact: true }),
      filters.getByRole('checkbox', { name: 'Has files' }),
    ];
    const boxes = [];
    for (const control of controls) {
      boxes.push((await control.boundingBox())!);
    }
    // Each below the one before, none beside another.
    for (let index = 1; index < boxes.length; index += 1) {
      expect(boxes[index]!.y).toBeGreaterThanOrEqual(boxes[index - 1]!.y + boxes[index - 1]!.height);
    }
    // The box, the button and the dates take the form's width.
    const form = (await filters.boundingBox())!;
    for (const box of boxes.slice(0, 4)) {
      expect(Math.round(box.width)).toBe(Math.round(form.width));
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('narrows by date range and by files, in the URL too', async () => {
    await page.getByLabel('From', { exact: true }).fill(localDay(1));
    await page.getByText('No submissions match these filters.').waitFor();
    await page.getByLabel('From', { exact: true }).fill(localDay(0));
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await expectCount(/^4 matching submissions/);
    await page.getByLabel('To', { exact: true }).fill(localDay(-1));
    await page.getByText('No submissions match these filters.').waitFor();
    await page.getByLabel('To', { exact: true }).fill(localDay(0));
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await expectCount(/^4 matching submissions/);

    // Controlled by the URL: checked once the navigation has happened.
    await page.getByRole('checkbox', { name: 'Has files' }).click();
    await page.getByText(/^1 matching submission,/).waitFor();
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    const params = new URL(page.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual({ from: localDay(0), to: localDay(0), files: '1' });

    await page.reload();
    await page.getByText(/^1 matching submission,/).waitFor();
    await expect(page.getByRole('checkbox', { name: 'Has files' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe(localDay(0));
    await accessible('inbox filtered by dates and files');

    await search('grace');
    await page.getByText(/^1 matching submission,/).waitFor();
    await search('elodie');
    await page.getByText('No submissions match these filters.').waitFor();
  });

  it('says "more than 1,000" on a big form, counts new arrivals, and counts all on request', async () => {
    const big = await env.createSiteAndForm('Big Shop');
    // 1,001 stored submissions, older than anything sent next (a bulk insert, as an import would).
    await env.sql(
      `insert into submissions (id, form_id, data, created_at)
       select gen_random_uuid(), ?, jsonb_build_object('name', 'Person ' || n), now() - n * interval '1 minute'
       from generate_series(1, 1001) as n`,
      [big.formId],
    );
    await page.goto(`${env.url}/sites/${big.siteId}/forms/${big.formId}`);
    await page.getByRole('row', { name: /Person 1\b/ }).waitFor();
    await expectCount(/^More than 1,000 submissions/);
    await accessible('inbox of a form with more than 1,000 submissions');

    expect((await env.sendSubmission(big.siteId, big.formCode, { name: 'Newcomer' })).status).toBe(201);
    await page.getByRole('row', { name: /Newcomer/ }).waitFor();
    await page.getByText('1 new since you opened this page').waitFor();
    await expectCount(/^More than 1,000 submissions/);
    // Arrivals are counted on an older page too, where none of them is in sight.
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByRole('row', { name: /Person 20\b/ }).waitFor();
    expect((await env.sendSubmission(big.siteId, big.formCode, { name: 'Second' })).status).toBe(201);
    await page.getByText('2 new since you opened this page').waitFor();
    await page.getByRole('button', { name: 'Show the newest' }).click();
    await page.getByRole('row', { name: /Second/ }).waitFor();

    await page.getByRole('button', { name: 'Count all' }).click();
    await expectCount(/^1,003 submissions/);
    await page.getByText('2 new since you opened this page').waitFor();
    // Counted all, the count stays exact as more arrive.
    expect((await env.sendSubmission(big.siteId, big.formCode, { name: 'Latecomer' })).status).toBe(201);
    await page.getByRole('row', { name: /Latecomer/ }).waitFor();
    await expectCount(/^1,004 submissions/);
    await page.getByText('3 new since you opened this page').waitFor();
  });

  it('says new submissions are being indexed while a search may miss them, then finds them', async () => {
    // The indexer held back, as on a busy worker: the submission is stored but not yet searchable.
    await env.searchIndexer.close();
    try {
      expect((await env.sendSubmission(siteId, formCode, { name: 'Hedy Lamarr' })).status).toBe(201);
      await page.goto(inboxUrl());
      await page.getByRole('row', { name: /Hedy Lamarr/ }).waitFor();
      await search('lamarr');
      await page.getByText('Indexing new submissions…', { exact: false }).waitFor();
      await page.getByText('No submissions match these filters.').waitFor();
      await accessible('inbox searching while new submissions are indexed');
    } finally {
      env.searchIndexer.start();
    }
    // The console asks again while indexing: the row comes, the notice goes.
    await page.getByRole('row', { name: /Hedy Lamarr/ }).waitFor();
    await page.getByTestId('search-indexing').waitFor({ state: 'detached' });
    await expectCount(/^1 matching submission/);
  });
});
