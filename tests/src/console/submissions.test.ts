// A form's inbox in Chromium against the real gateway: submissions posted with the token and code read
// in the API view appear without a reload; the detail shows every field and each file, whose download
// has the checksum that was sent; stored XSS payloads show as text and never run; Delete; pages.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { pdf } from '@intake/test-files';
import { decodeStoredText } from '@intake/shared/stored-text';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

interface StoredSubmission {
  id: string;
  data: Record<string, unknown>;
  files: { name: string; sha256: string; size: number; mimeType: string; downloadUrl: string }[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describeConsole('console: a form inbox', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let code: string;
  let token: string;
  const dialogs: string[] = [];
  const foreignRequests: string[] = [];
  const report = pdf();

  const inboxUrl = () => `${env.url}/sites/${siteId}/forms/${formId}`;
  const post = (body: Record<string, unknown> | FormData) =>
    fetch(`${env.gatewayUrl}/api/v1/send/${code}`, {
      method: 'POST',
      headers: {
        'X-KEY-SERVICE': env.apiKey,
        Authorization: `Bearer ${token}`,
        ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
  const stored = async (): Promise<StoredSubmission[]> => {
    const result = await env.gql<{ submissions: { edges: { node: StoredSubmission }[] } }>(
      'query ($formId: ID!) { submissions(formId: $formId, first: 100) { edges { node { id data files { name sha256 size mimeType downloadUrl } } } } }',
      { formId },
    );
    return result.data!.submissions.edges.map((edge) => edge.node);
  };
  /** Waits for the count line to read `text`: the count comes in its own request, after the page. */
  const expectCount = (text: RegExp) => page.getByTestId('submission-count').filter({ hasText: text }).waitFor();

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(env.url) && !request.url().startsWith('data:')) {
        foreignRequests.push(request.url());
      }
    });
    await signIn(page, env.url);
    ({ siteId, formId } = await env.createSiteAndForm('Acme Shop'));
  });

  afterAll(async () => {
    expect(dialogs).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('reads the token and the form code in the API view', async () => {
    await page.goto(`${env.url}/sites/${siteId}/api`);
    await expectHeading(page, 'API');
    await page.getByRole('button', { name: 'Show token' }).click();
    token = (await page.getByTestId('site-token').innerText()).trim();
    const row = page.getByRole('row', { name: /Contact/ });
    const endpoint = (await row.getByText('/api/v1/send/').innerText()).trim();
    code = endpoint.slice(endpoint.lastIndexOf('/') + 1);
    expect(endpoint).toBe(`${env.gatewayUrl}/api/v1/send/${code}`);
    await row.getByText(code, { exact: true }).waitFor();
  });

  it('shows new submissions without a reload, newest first, with the count of new ones', async () => {
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    await page.getByText('No submissions yet').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'inbox, empty'));
    // A marker that a reload would wipe.
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

    const json = await post({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Tom & Jerry',
      address: { city: 'London', lines: ['12 St James’s Square', 'Flat 2'] },
      topics: ['engines', 'poetry'],
    });
    expect(json.status).toBe(201);
    const multipart = new FormData();
    multipart.append('name', 'Grace Hopper');
    multipart.append('message', 'Report attached.\nSecond line.');
    multipart.append('fichier', new Blob([new Uint8Array(report)], { type: 'application/pdf' }), 'report.pdf');
    const withFile = await post(multipart);
    expect(withFile.status).toBe(201);

    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor({ timeout: 30000 });
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(
      true,
    );
    await expectCount(/^2 submissions/);
    await page.getByText('2 new since you opened this page').waitFor();
    // Newest first: the file's submission came second.
    const rows = await page.getByRole('row').allInnerTexts();
    expect(rows.findIndex((text) => text.includes('Grace Hopper'))).toBeLessThan(
      rows.findIndex((text) => text.includes('Ada Lovelace')),
    );
    // Columns from the fields; nested values compact; the name as typed.
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers).toEqual(expect.arrayContaining(['Received', 'name', 'Files', 'Actions']));
    const ada = page.getByRole('row', { name: /Ada Lovelace/ });
    await ada.getByText('ada@example.com', { exact: true }).waitFor();
    await page
      .getByRole('row', { name: /Grace Hopper/ })
      .getByText('report.pdf')
      .waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'inbox with submissions'));
  });

  it('shows every field and the file in the detail; the download has the checksum that was sent', async () => {
    await page
      .getByRole('row', { name: /Grace Hopper/ })
      .getByRole('link', { name: 'Open' })
      .click();
    await expectHeading(page, 'Submission');
    // A submission's page is under its form's Submissions tab.
    await expect(
      page.getByRole('navigation', { name: 'Form' }).locator('[aria-current="page"]').allInnerTexts(),
    ).resolves.toEqual(['Submissions']);
    const fields = page.getByRole('region', { name: 'Fields' });
    await fields.getByText('Grace Hopper', { exact: true }).waitFor();
    expect(await fields.getByRole('row', { name: /message/ }).innerText()).toContain('Report attached.\nSecond line.');

    const files = page.getByRole('region', { name: 'Files' });
    const fileRow = files.getByRole('row', { name: /report\.pdf/ });
    const cells = await fileRow.getByRole('cell').allInnerTexts();
    expect(cells).toEqual(expect.arrayContaining(['fichier', 'application/pdf', sha256(report)]));
    const link = fileRow.getByRole('link', { name: 'Download report.pdf' });
    const href = await link.getAttribute('href');
    expect(href).toBeTruthy();
    const download = await fetch(href!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(report));
    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with a file'));

    // A deep link reloads to the same submission.
    await page.reload();
    await expectHeading(page, 'Submission');
    await page.getByRole('link', { name: 'Download report.pdf' }).waitFor();

    // Nested objects and lists are readable in the other one.
    await page.getByRole('link', { name: 'Back to the submissions' }).click();
    await expectHeading(page, 'Submissions');
    await page
      .getByRole('row', { name: /Ada Lovelace/ })
      .getByRole('link', { name: 'Open' })
      .click();
    await expectHeading(page, 'Submission');
    const nested = page.getByRole('region', { name: 'Fields' });
    await nested.getByText('London', { exact: true }).waitFor();
    await nested.getByText('Flat 2', { exact: true }).waitFor();
    await nested.getByText('poetry', { exact: true }).waitFor();
    await nested.getByText('Tom & Jerry', { exact: true }).waitFor();
    await page.getByText('No files came with this submission.').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with nested fields'));
  });

  it('shows stored XSS payloads as text, decoded once, and runs none of them', async () => {
    const payloads = {
      image: '<img src=x onerror=alert(1)>',
      vector: "<svg onload=fetch('http://127.0.0.1:9/svg')>",
      breakout: `"><script>fetch('http://127.0.0.1:9/x')</script>`,
      link: '<a href="javascript:alert(1)">click me</a>',
      entity: 'Tom &amp; Jerry &lt;b&gt;',
      company: 'Tom & Jerry <b>bold</b>',
    };
    expect((await post({ name: 'Mallory', ...payloads })).status).toBe(201);
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    const row = page.getByRole('row', { name: /Mallory/ });
    await row.waitFor();
    const [mallory] = (await stored()).filter((submission) => submission.data.name === 'Mallory');
    expect(mallory).toBeDefined();
    // Nothing the payloads could have built is in the page, in the list or in the detail.
    const built = ['img', 'svg[onload]', 'script', 'a[href^="javascript"]', '[onerror]', 'b'];
    const main = page.getByRole('main');
    for (const selector of built) {
      expect(await main.locator(selector).count()).toBe(0);
    }

    await row.getByRole('link', { name: 'Open' }).click();
    await expectHeading(page, 'Submission');
    const fields = page.getByRole('region', { name: 'Fields' });
    for (const key of Object.keys(payloads)) {
      const value = mallory!.data[key];
      expect(typeof value).toBe('string');
      // Exactly the stored text decoded once, as text; every payload lost markup, so each is marked.
      const cell = fields.getByRole('row', { name: new RegExp(`^${key}\\b`) }).getByRole('cell');
      expect(await cell.getByTestId('sanitized-note').innerText()).toBe('markup removed by the XSS sanitiser');
      const text = await cell.evaluate((element) => {
        const copy = element.cloneNode(true) as HTMLElement;
        copy.querySelector('[data-testid="sanitized-note"]')?.remove();
        return copy.textContent;
      });
      expect(text).toBe(decodeStoredText(value as string));
    }
    expect(decodeStoredText(mallory!.data.company as string)).toContain('Tom & Jerry');
    await fields
      .getByText(/Tom & Jerry/)
      .first()
      .waitFor();
    for (const selector of built) {
      expect(await main.locator(selector).count()).toBe(0);
    }
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });

  it('deletes a submission after a confirmation; its file link stops working', async () => {
    const [withFile] = (await stored()).filter((submission) => submission.files.length > 0);
    await page.goto(`${inboxUrl()}/submissions/${withFile!.id}`);
    await expectHeading(page, 'Submission');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this submission?' });
    await dialog.getByText(/removed for good/).waitFor();
    await checkAccessibility(page, 'delete submission dialog');
    await dialog.getByRole('button', { name: 'Delete submission' }).click();
    await expectHeading(page, 'Submissions');
    await page.getByText('Submission deleted').waitFor();
    expect(await page.getByRole('row', { name: /Grace Hopper/ }).count()).toBe(0);
    await expectCount(/^2 submissions/);
    const left = await stored();
    expect(left.map((submission) => submission.id)).not.toContain(withFile!.id);
    expect((await fetch(withFile!.files[0]!.downloadUrl)).status).toBe(404);

    // From the inbox row as well.
    await page
      .getByRole('row', { name: /Mallory/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete this submission?' })
      .getByRole('button', { name: 'Delete submission' })
      .click();
    await page.getByRole('row', { name: /Mallory/ }).waitFor({ state: 'detached' });
    await expectCount(/^1 submission\b/);
  });

  it('pages through the submissions with the cursors', async () => {
    for (let index = 1; index <= 22; index += 1) {
      expect((await post({ name: `Visitor ${String(index).padStart(2, '0')}` })).status).toBe(201);
    }
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    await page.getByRole('row', { name: /Visitor 22/ }).waitFor();
    await expectCount(/^23 submissions.*page 1/);
    expect(await page.getByRole('row', { name: /Visitor/ }).count()).toBe(20);
    const pages = page.getByRole('navigation', { name: 'Pages of submissions' });
    await pages.getByRole('button', { name: 'Older' }).click();
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
    await expectCount(/page 2/);
    expect(await page.getByRole('row', { name: /Visitor/ }).allInnerTexts()).toEqual([
      expect.stringContaining('Visitor 02'),
      expect.stringContaining('Visitor 01'),
    ]);
    expect(await pages.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await atBothWidths(page, () => checkAccessibility(page, 'inbox, second page'));
    await pages.getByRole('button', { name: 'Newer' }).click();
    await page.getByRole('row', { name: /Visitor 22/ }).waitFor();
  });

  it("asks for the count apart from the page, up to 1,000, so a big form's page does not wait for it", async () => {
    const operations: { operationName?: string; query?: string }[] = [];
    const record = (request: Request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql') {
        operations.push(request.postDataJSON() as { operationName?: string; query?: string });
      }
    };
    page.on('request', record);
    await page.goto(inboxUrl());
    await page.getByRole('row', { name: /Visitor 22/ }).waitFor();
    await expectCount(/^23 submissions/);
    page.off('request', record);
    const named = (name: string) => operations.find((operation) => operation.operationName === name)?.query ?? '';
    expect(named('SubmissionsInbox')).toContain('edges');
    expect(named('SubmissionsInbox')).not.toContain('totalCount');
    expect(named('SubmissionCount')).toContain('countUpTo');
    // The exact count reads every match: only Count all asks for it.
    expect(named('SubmissionCount')).not.toContain('totalCount');
    expect(named('SubmissionTotalCount')).toBe('');
  });
});
