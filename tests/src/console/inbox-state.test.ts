// A submission's page shows its status, assignee and internal notes (issue #36): a manager changes
// the status, assigns it to themselves and adds a note, shown as text once decoded, markup removed;
// the values reach the API, and opening the page marks the submission read. The inbox's counts and
// filters, and its bulk actions on a selection.
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

  it('assigns to a colleague chosen by name among those who can read the site', async () => {
    const created = await env.gql(
      'mutation($input: CreateMemberInput!) { createMember(input: $input) { member { id } } }',
      { input: { email: 'grace@example.com', name: 'Grace', role: 'member', grants: [{ siteId, level: 'read' }] } },
    );
    expect(created.errors).toBeUndefined();
    const response = await env.sendSubmission(siteId, formCode, { name: 'Linus', request: 'A library card' });
    const { id } = (await response.json()) as { id: string };
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${id}`);
    const section = page.getByRole('region', { name: 'Status and notes' });
    const assignee = section.getByRole('combobox', { name: 'Assignee' });
    await assignee.locator('option', { hasText: 'Grace' }).waitFor({ state: 'attached' });
    await assignee.selectOption({ label: 'Grace' });
    await page.getByText('Assigned to Grace').waitFor();
    const rows = await env.sql(
      `select u.name from submissions s join admin_users u on u.id = s.assignee_id where s.id = ?`,
      [id],
    );
    expect(rows).toEqual([{ name: 'Grace' }]);
    await assignee.selectOption({ label: 'Nobody' });
    await page.getByText('Unassigned').waitFor();
  });

  it('counts the inbox by status and filters it by status, mine and unread, archived hidden by default', async () => {
    const library = await env.createSiteAndForm('Library');
    const ids: string[] = [];
    for (const name of ['Archived one', 'Mine', 'Read one']) {
      const response = await env.sendSubmission(library.siteId, library.formCode, { name });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const [archived, mine, read] = ids as [string, string, string];
    const owner = `(select id from admin_users where email = 'admin@example.com')`;
    await env.sql(`update submissions set status = 'archived' where id = ?`, [archived]);
    await env.sql(`update submissions set assignee_id = ${owner} where id = ?`, [mine]);
    await env.sql(`insert into submission_reads (submission_id, member_id, read_at) select ?, ${owner}, now()`, [read]);

    await page.goto(`${env.url}/sites/${library.siteId}/forms/${library.formId}`);
    await expectHeading(page, 'Submissions');
    const counts = page.getByTestId('status-counts');
    await counts.getByText('New 2 · Open 0 · Done 0 · Archived 1 · Unread 1').waitFor();
    const count = page.getByTestId('submission-count');
    await count.getByText(/^2 submissions/).waitFor();

    const filters = page.getByRole('search', { name: 'Filter submissions' });
    await filters.getByRole('combobox', { name: 'Status' }).selectOption('archived');
    await count.getByText(/^1 matching submission/).waitFor();
    expect(page.url()).toContain('status=archived');
    await page.getByRole('row', { name: /Archived one/ }).waitFor();

    await filters.getByRole('combobox', { name: 'Status' }).selectOption('');
    await filters.getByRole('checkbox', { name: 'Assigned to me' }).click();
    await count.getByText(/^1 matching submission/).waitFor();
    await page.getByRole('row', { name: /Mine/ }).waitFor();
    // The filter lives in the URL: a click, then the list that answers it (the box follows the URL).
    await filters.getByRole('checkbox', { name: 'Assigned to me' }).click();
    await count.getByText(/^2 submissions/).waitFor();
    await filters.getByRole('checkbox', { name: 'Unread' }).click();
    await count.getByText(/^1 matching submission/).waitFor();
    await page.getByRole('row', { name: /Mine/ }).waitFor();

    await atBothWidths(page, () => checkAccessibility(page, 'inbox filtered by its state'));
  });

  it('acts on a selection at once, after one confirmation: status, assignee, spam and delete', async () => {
    const desk = await env.createSiteAndForm('Front desk');
    for (const name of ['First', 'Second', 'Third']) {
      expect((await env.sendSubmission(desk.siteId, desk.formCode, { name })).status).toBe(201);
    }
    await page.goto(`${env.url}/sites/${desk.siteId}/forms/${desk.formId}`);
    await expectHeading(page, 'Submissions');
    const counts = page.getByTestId('status-counts');
    await counts.getByText('New 3 · Open 0 · Done 0 · Archived 0 · Unread 3').waitFor();
    const toolbar = page.getByRole('toolbar', { name: 'Selected submissions' });
    expect(await toolbar.count()).toBe(0);

    // Two rows by their own checkboxes: the toolbar counts them.
    const rowBox = (name: string) =>
      page.getByRole('row', { name: new RegExp(name) }).getByRole('checkbox', { name: /^Select the submission of / });
    await rowBox('First').check();
    await rowBox('Second').check();
    await toolbar.getByText('2 submissions selected').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'inbox with a selection'));

    await toolbar.getByRole('button', { name: 'Set status' }).click();
    await page.getByRole('menuitem', { name: 'Done' }).click();
    const confirm = page.getByRole('dialog', { name: 'Set 2 submissions to Done?' });
    await confirm.getByRole('button', { name: 'Set to Done' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await counts.getByText('New 1 · Open 0 · Done 2 · Archived 0 · Unread 3').waitFor();
    // The action clears the selection.
    await toolbar.waitFor({ state: 'detached' });

    // Every row on the page, then assigned to me, then marked read.
    await page.getByRole('checkbox', { name: 'Select every submission on this page' }).check();
    await toolbar.getByText('3 submissions selected').waitFor();
    await toolbar.getByRole('button', { name: 'Assign to me' }).click();
    await page
      .getByRole('dialog', { name: 'Assign 3 submissions to you?' })
      .getByRole('button', { name: 'Assign to me' })
      .click();
    await toolbar.waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: 'Select every submission on this page' }).check();
    await toolbar.getByRole('button', { name: 'Mark read' }).click();
    await page
      .getByRole('dialog', { name: 'Mark 3 submissions read?' })
      .getByRole('button', { name: 'Mark read' })
      .click();
    await counts.getByText('New 1 · Open 0 · Done 2 · Archived 0 · Unread 0').waitFor();

    // Cancel leaves everything as it was.
    await rowBox('Third').check();
    await toolbar.getByRole('button', { name: 'Delete' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete 1 submission?' });
    await deletion.getByRole('button', { name: 'Cancel' }).click();
    await deletion.waitFor({ state: 'hidden' });
    await toolbar.getByRole('button', { name: 'Mark as spam' }).click();
    await page
      .getByRole('dialog', { name: 'Mark 1 submission as spam?' })
      .getByRole('button', { name: 'Mark as spam' })
      .click();
    await page
      .getByTestId('submission-count')
      .getByText(/^2 submissions/)
      .waitFor();

    await rowBox('First').check();
    await toolbar.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete 1 submission?' })
      .getByRole('button', { name: 'Delete 1 submission' })
      .click();
    await page
      .getByTestId('submission-count')
      .getByText(/^1 submission\b/)
      .waitFor();

    const rows = await env.sql(
      `select s.data->>'name' as name, s.status, s.spam, s.spam_reason, s.assignee_id is not null as assigned
         from submissions s where s.form_id = ? order by s.data->>'name'`,
      [desk.formId],
    );
    expect(rows).toEqual([
      { name: 'Second', status: 'done', spam: false, spam_reason: null, assigned: true },
      { name: 'Third', status: 'new', spam: true, spam_reason: 'marked', assigned: true },
    ]);
    const audited = await env.sql(
      `select action, (details->>'result')::int as result from audit_log
        where object_id = ? and outcome = 'success' and action <> 'createForm' order by seq`,
      [desk.formId],
    );
    expect(audited).toEqual([
      { action: 'setSubmissionsStatus', result: 2 },
      { action: 'assignSubmissions', result: 3 },
      { action: 'markSubmissionsRead', result: 3 },
      { action: 'markSubmissionsSpam', result: 1 },
      { action: 'deleteSubmissions', result: 1 },
    ]);
  });
});
