// The inbox's state in exports: every format carries each submission's status and assignee; the
// team's internal notes only when the export asks for them (`notes: true`), in the signed link.
import type { Form } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { parse } from 'csv-parse/sync';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

const CREATE_EXPORT = `mutation($formId: ID!, $format: SubmissionExportFormat!, $notes: Boolean) {
  createSubmissionExport(formId: $formId, format: $format, notes: $notes) { url }
}`;

describe(`inbox state in exports on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let form: Form;
  let worked: string;
  let untouched: string;

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);

  async function exported(format: string, notes?: boolean): Promise<string> {
    const link = await gql<{ createSubmissionExport: { url: string } }>(CREATE_EXPORT, {
      formId: form.id,
      format,
      notes,
    });
    expect(link.errors).toBeUndefined();
    const response = await fetch(link.data!.createSubmissionExport.url);
    expect(response.status).toBe(200);
    return response.text();
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    const { site } = await makeSite(admin.services);
    form = await makeForm(admin.services, site);
    untouched = (await makeSubmission(admin.services, form, { createdAt: new Date(Date.now() - 60_000) })).submission
      .id;
    worked = (await makeSubmission(admin.services, form)).submission.id;
    const me = await gql<{ me: { id: string } }>('{ me { id } }');
    for (const [query, variables] of [
      ['mutation($id: ID!) { setSubmissionStatus(id: $id, status: done) { id } }', { id: worked }],
      [
        'mutation($id: ID!, $to: ID) { assignSubmission(id: $id, assigneeId: $to) { id } }',
        { id: worked, to: me.data!.me.id },
      ],
      [
        'mutation($id: ID!) { addSubmissionNote(id: $id, text: "Called back, <b>Tuesday</b> & done") { id } }',
        { id: worked },
      ],
      ['mutation($id: ID!) { addSubmissionNote(id: $id, text: "=SUM(A1) second") { id } }', { id: worked }],
    ] as const) {
      expect((await gql(query, variables)).errors).toBeUndefined();
    }
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('carries status and assignee in every format, and notes only when asked', async () => {
    const json = JSON.parse(await exported('JSON')) as Record<string, unknown>[];
    expect(json.map((row) => [row.id, row.status, row.assignee, 'notes' in row])).toEqual([
      [worked, 'done', expect.any(String), false],
      [untouched, 'new', null, false],
    ]);

    const withNotes = (await exported('NDJSON', true))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; notes: { author: string; text: string; createdAt: string }[] });
    expect(withNotes[0]!.notes.map((note) => note.text)).toEqual([
      // Stored as the sanitiser left it: markup removed, the rest HTML-escaped.
      'Called back, Tuesday &amp; done',
      '=SUM(A1) second',
    ]);
    expect(withNotes[0]!.notes[0]!.author).toBe(json[0]!.assignee);
    expect(withNotes[1]!.notes).toEqual([]);
  });

  it('adds CSV columns: status and assignee always, notes (as written, one a line) when asked', async () => {
    const plain = parse((await exported('CSV')).replace(/^\uFEFF/, ''), { relax_column_count: false }) as string[][];
    expect(plain[0]).toEqual([
      'id',
      'createdAt',
      'status',
      'assignee',
      'message',
      'name',
      'sanitizedFields',
      'files',
      'fileLinks',
    ]);
    expect(plain[1]!.slice(2, 3)).toEqual(['done']);
    expect(plain[2]!.slice(2, 4)).toEqual(['new', '']);

    const noted = parse((await exported('CSV', true)).replace(/^\uFEFF/, '')) as string[][];
    const notesAt = noted[0]!.indexOf('notes');
    expect(notesAt).toBe(noted[0]!.indexOf('name') + 1);
    const lines = noted[1]![notesAt]!.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z .+: Called back, Tuesday & done$/);
    expect(lines[1]).toMatch(/: =SUM\(A1\) second$/);
    expect(noted[2]![notesAt]).toBe('');
  });
});
