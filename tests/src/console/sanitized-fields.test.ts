// The submission view in Chromium says where the XSS sanitiser removed markup (issue #21): a
// submission posted to the real gateway with `if (a<b && c>d) {}` and `<b>bold</b>` in nested fields
// shows each such value with the note "markup removed by the XSS sanitiser", and no note beside a
// value that was only escaped (`Tom & Jerry`, quotes, `a < b`). The caption no longer claims that
// every field is as it was sent.
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

const NOTE = 'markup removed by the XSS sanitiser';

describeConsole('console: values changed by the sanitiser', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let submissionId: string;

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    const created = await env.createSiteAndForm('Acme Shop');
    ({ siteId, formId } = created);
    const response = await env.sendSubmission(siteId, created.formCode, {
      message: 'if (a<b && c>d) {}',
      items: ['plain', 'Tom & Jerry', '<b>bold</b>'],
      contact: { name: `O'Brien said "hi" & a < b`, note: 'very <b>bold</b>' },
    });
    expect(response.status).toBe(201);
    submissionId = ((await response.json()) as { id: string }).id;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('marks each value whose markup was removed, and only those', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${submissionId}`);
    await expectHeading(page, 'Submission');
    const fields = page.getByRole('region', { name: 'Fields' });
    await fields.getByText('if (ad) {}', { exact: true }).waitFor();
    expect(await fields.getByText(NOTE).count()).toBe(3);
    expect(await fields.getByText('Every field as it was sent').count()).toBe(0);
    await fields.getByText(/Every field as stored\. Markup is removed before storage/).waitFor();

    // Top level: the message lost `<b && c>`.
    const message = fields.getByRole('row', { name: /^message\b/ });
    expect(await message.getByText(NOTE).count()).toBe(1);
    // In a list: the third item only.
    const items = fields.getByRole('row', { name: /^items\b/ }).getByRole('listitem');
    expect((await items.allInnerTexts()).map((text) => text.split('\n')[0])).toEqual(['plain', 'Tom & Jerry', 'bold']);
    const notes = await Promise.all([0, 1, 2].map((index) => items.nth(index).getByText(NOTE).count()));
    expect(notes).toEqual([0, 0, 1]);
    // In a nested object: the note, not the name, which was only escaped.
    const contact = fields.getByRole('row', { name: /^contact\b/ });
    const note = contact.getByRole('row', { name: /^note\b/ });
    expect(await note.getByText(NOTE).count()).toBe(1);
    await note.getByText('very bold', { exact: true }).waitFor();
    const name = contact.getByRole('row', { name: /^name\b/ });
    expect(await name.getByRole('cell').innerText()).toBe(`O'Brien said "hi" & a < b`);

    await page.screenshot({ path: '/tmp/h2-sanitized-fields.png', fullPage: true });
    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with sanitised fields'));
  });
});
