// A submission's page shows its status, assignee and internal notes (issue #36): a manager changes
// the status, assigns it to themselves and adds a note, shown as text once decoded, markup removed;
// the values reach the API, and opening the page marks the submission read.
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

describeConsole('console: a submission’s status, assignee and notes', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Town hall'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('changes the status, assigns it, adds a note and marks it read', async () => {
    const response = await env.sendSubmission(siteId, formCode, { name: 'Ada', request: 'A parking permit' });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${id}`);
    await expectHeading(page, 'Submission');
    const section = page.getByRole('region', { name: 'Status and notes' });
    await section.getByText('No notes yet.').waitFor();

    await section.getByRole('combobox', { name: 'Status' }).selectOption('open');
    await page.getByText('Status: Open').waitFor();
    await section.getByRole('button', { name: 'Assign to me' }).click();
    await section.getByRole('button', { name: 'Unassign' }).waitFor();
    await section.getByRole('textbox', { name: 'Note' }).fill('Call <b>Tom</b> & Jerry back');
    await section.getByRole('button', { name: 'Add note' }).click();
    await section.getByText('Call Tom & Jerry back').waitFor();
    expect(await section.getByRole('textbox', { name: 'Note' }).inputValue()).toBe('');

    const rows = await env.sql(
      `select s.status, s.assignee_id is not null as assigned, n.text,
              (select count(*)::int from submission_reads r where r.submission_id = s.id) as read
         from submissions s join submission_notes n on n.submission_id = s.id where s.id = ?`,
      [id],
    );
    expect(rows).toEqual([{ status: 'open', assigned: true, text: 'Call Tom &amp; Jerry back', read: 1 }]);

    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with status and notes'));
  });
});
