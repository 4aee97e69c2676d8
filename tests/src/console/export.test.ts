// Export in Chromium: submissions sent through the real gateway (one with a file), then Export on the
// form's inbox, CSV chosen in the dialog, and the file Chromium downloads parsed with a real CSV parser
// and compared with what the API stores: text as sent, formula-looking cells neutralised, file names
// and a working download link. JSON from the same dialog parses back to the stored data.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import type { Download, Page } from 'playwright-core';
import { pdf } from '@intake/test-files';
import { decodeStoredText } from '@intake/shared/stored-text';
import { searchIndexed } from '@intake/shared/test';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  settled,
  signIn,
  startConsole,
  type ConsoleEnvironment,
  downloadedBytes,
} from './harness.js';

interface StoredSubmission {
  id: string;
  createdAt: string;
  data: Record<string, unknown>;
  files: { name: string }[];
}

const SENT = [
  { name: 'Tom & Jerry', message: 'a, "quoted"\nsecond line', amount: '=1+1' },
  { name: 'Zoë Ünïcode', message: '@SUM(A1:A2)', amount: '-3' },
  { name: '<b>bold</b> attempt', message: 'plain', amount: '+7' },
];

describeConsole('console: exporting a form’s submissions', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  const inboxUrl = () => `${env.url}/sites/${siteId}/forms/${formId}`;
  const stored = async (): Promise<StoredSubmission[]> => {
    const result = await env.gql<{ submissions: { edges: { node: StoredSubmission }[] } }>(
      'query ($formId: ID!) { submissions(formId: $formId, first: 100) { edges { node { id createdAt data files { name } } } } }',
      { formId },
    );
    return result.data!.submissions.edges.map((edge) => edge.node);
  };

  async function exportAs(label: 'CSV' | 'JSON' | 'NDJSON'): Promise<Download> {
    await page.getByRole('button', { name: 'Export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export submissions' });
    await dialog.waitFor();
    // A click while the dialog still scales in was once lost at load 6 ("did not change its state").
    await settled(page);
    await dialog.getByRole('radio', { name: label, exact: true }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    await dialog.waitFor({ state: 'hidden' });
    return download;
  }

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Shop'));
    for (const body of SENT) {
      expect((await env.sendSubmission(siteId, formCode, body)).status).toBe(201);
    }
    const withFile = new FormData();
    withFile.set('name', 'Ada');
    withFile.set('cv', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'cv & letter.pdf');
    expect((await env.sendSubmission(siteId, formCode, withFile)).status).toBe(201);
    await searchIndexed(env.services.db, formId);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('offers the formats in an accessible dialog', async () => {
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    await page.getByRole('button', { name: 'Export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export submissions' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: 'CSV', exact: true }).isChecked()).toBe(true);
    for (const label of ['JSON', 'NDJSON']) {
      expect(await dialog.getByRole('radio', { name: label, exact: true }).isChecked()).toBe(false);
    }
    await atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, 'export dialog');
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('downloads a CSV that a real parser reads back as the stored submissions', async () => {
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    const download = await exportAs('CSV');
    expect(download.suggestedFilename()).toBe(`Contact-${new Date().toISOString().slice(0, 10)}.csv`);
    const bytes = await downloadedBytes(download);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(bytes, { bom: true }) as string[][];
    expect(header).toEqual([
      'id',
      'createdAt',
      'status',
      'assignee',
      'amount',
      'message',
      'name',
      'sanitizedFields',
      'files',
      'fileLinks',
    ]);

    const rows = await stored();
    expect(records).toHaveLength(rows.length);
    const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    const cell = (value: unknown) => (typeof value === 'string' ? neutralised(decodeStoredText(value)) : '');
    // Column 7 is sanitizedFields (sanitised-fields.test.ts covers it); 8 and 9 the files.
    expect(records.map((record) => [...record.slice(0, 7), record[8]])).toEqual(
      rows.map((row) => [
        row.id,
        row.createdAt,
        'new',
        '',
        cell(row.data.amount),
        cell(row.data.message),
        cell(row.data.name),
        row.files.map((file) => decodeStoredText(file.name)).join('\n'),
      ]),
    );
    // What a spreadsheet user reads: the text as sent, formulas inert.
    const byName = new Map(records.map((record) => [record[6], record]));
    expect(byName.get('Tom & Jerry')!.slice(4, 6)).toEqual(["'=1+1", 'a, "quoted"\nsecond line']);
    expect(byName.get('Zoë Ünïcode')!.slice(4, 6)).toEqual(["'-3", "'@SUM(A1:A2)"]);
    const withFile = byName.get('Ada')!;
    expect(withFile[8]).toBe('cv & letter.pdf');
    expect(withFile[9]).toMatch(new RegExp(`^${env.url}/files/`));
    const file = await fetch(withFile[9]!);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf()))).toBe(true);
  });

  it('adds the internal notes when the dialog is asked to', async () => {
    const [first] = await stored();
    const noted = await env.gql('mutation($id: ID!) { addSubmissionNote(id: $id, text: "Call back Tuesday") { id } }', {
      id: first!.id,
    });
    expect(noted.errors).toBeUndefined();
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    await page.getByRole('button', { name: 'Export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export submissions' });
    await dialog.getByRole('radio', { name: 'NDJSON', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'Include internal notes' }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    const lines = (await downloadedBytes(download)).toString('utf8').trim().split('\n');
    const byId = new Map(
      lines.map((line) => JSON.parse(line) as { id: string; notes: { text: string }[] }).map((row) => [row.id, row]),
    );
    expect(byId.get(first!.id)!.notes.map((note) => note.text)).toEqual(['Call back Tuesday']);
  });

  it('exports what the list shows with its search filter', async () => {
    await page.goto(inboxUrl());
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('zoe');
    await page.getByRole('searchbox', { name: 'Search submissions' }).press('Enter');
    await page.getByText(/^1 matching submission,/).waitFor();
    const download = await exportAs('NDJSON');
    expect(download.suggestedFilename()).toMatch(/^Contact-\d{4}-\d{2}-\d{2}\.ndjson$/);
    const lines = (await downloadedBytes(download)).toString('utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as StoredSubmission).data.name)).toEqual(['Zoë Ünïcode']);
  });

  it('downloads JSON with the stored data, as the API answers it', async () => {
    await page.goto(inboxUrl());
    await expectHeading(page, 'Submissions');
    const download = await exportAs('JSON');
    expect(download.suggestedFilename()).toMatch(/^Contact-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse((await downloadedBytes(download)).toString('utf8')) as StoredSubmission[];
    const rows = await stored();
    expect(exported.map(({ id, createdAt, data }) => ({ id, createdAt, data }))).toEqual(
      rows.map(({ id, createdAt, data }) => ({ id, createdAt, data })),
    );
    // The console stayed where it was.
    expect(page.url()).toBe(inboxUrl());
  });
});
