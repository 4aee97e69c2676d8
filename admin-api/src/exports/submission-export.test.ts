import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { jest } from '@jest/globals';
import type { Form, Site } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import { testDriverName } from '@intake/shared/test';
import { parse } from 'csv-parse/sync';
import { createExportLinks } from './export-link.js';
import { jsonChunks } from './export-formats.js';
import { readSubmissionBatches } from './export-rows.js';
import { createDownloadLinks } from '../lib/download-link.js';
import { NO_SUBMISSION_FILTER } from '../lib/submission-filter.js';
import { makeForm, makeSite, makeSubmission, sampleFile } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

// 10,000 rows inserted and exported three times over real HTTP: well past the default 5 s.
jest.setTimeout(180_000);

const CREATE_EXPORT = `mutation($formId: ID!, $format: SubmissionExportFormat!, $spam: Boolean, $filter: SubmissionFilterInput) {
  createSubmissionExport(formId: $formId, format: $format, spam: $spam, filter: $filter) { url expiresAt }
}`;
const PAGE = `query($formId: ID!, $filter: SubmissionFilterInput, $after: String) {
  submissions(formId: $formId, filter: $filter, first: 100, after: $after) {
    totalCount
    edges { node { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const ROWS = 10_000;
const ROWS_WITH_FILES = 12;

// What people send, stored as the gateway stores it: HTML-escaped (& < > " ' and U+00A0).
const TRICKY_TEXT = [
  'plain',
  'Tom & Jerry',
  'a, b, c',
  'say "hello"',
  'two\nlines',
  'crlf\r\nline',
  'Ünïcödé — ñ 日本語 😀',
  "=cmd|' /C calc'!A0",
  '+1',
  '-2',
  '@x',
  '\tleading tab',
  '\rleading carriage return',
  '=HYPERLINK("http://evil.example","x")',
  '<b>not markup</b>',
  '&amp; already escaped text',
  'non\u00A0breaking',
  '',
  ' padded ',
  '\uFF1Dfull-width equals',
];
const storeText = (sent: string): string =>
  sent
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('\u00A0', '&nbsp;');

// Field names are stored as sent; `id` collides with a fixed column, `=total` looks like a formula.
const KEYS = ['name', 'message', 'amount', 'consent', 'address', 'tags', 'id', '=total', 'note, with comma', 'été'];

interface Sent {
  id: string;
  createdAt: Date;
  /** The values as sent (before storage escaped them). */
  sent: Record<string, unknown>;
}

function sentRow(index: number, base: number): Sent {
  const text = (offset: number) => TRICKY_TEXT[(index + offset) % TRICKY_TEXT.length]!;
  const sent: Record<string, unknown> = {
    name: text(0),
    message: text(7),
    amount: index % 3 === 0 ? -2 : index * 1.5,
    consent: index % 2 === 0,
    address: { street: text(3), city: 'Zürich', zip: null },
    tags: [text(5), 'b', 42],
    id: `field-${index}`,
    '=total': text(11),
    'note, with comma': index % 5 === 0 ? null : text(13),
  };
  // Sparse fields: an empty cell where a submission does not have the field.
  if (index % 4 === 0) {
    sent['été'] = text(2);
  }
  if (index % 7 === 0) {
    delete sent.message;
  }
  // Timestamps with ties (same millisecond) so the keyset's tie-break on id is exercised.
  return { id: randomUUID(), createdAt: new Date(base + Math.floor(index / 3)), sent };
}

function stored(value: unknown): unknown {
  if (typeof value === 'string') {
    return storeText(value);
  }
  if (Array.isArray(value)) {
    return value.map(stored);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, stored(inner)]));
  }
  return value;
}

// OWASP: a leading apostrophe on cells that a spreadsheet would evaluate, and on each line or
// `;`-separated piece inside one (where a spreadsheet of another locale starts a cell or a row).
const neutralised = (text: string): string =>
  text
    .split(/(\r\n|[;\t\r\n])/)
    .map((piece, index) =>
      index % 2 === 0 && (/^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(piece) || (index === 0 && /^[\t\r\n]/.test(text)))
        ? `'${piece}`
        : piece,
    )
    .join('');

/** The CSV cell a spreadsheet user should see for a value as sent; nested values as parsed JSON text. */
function expectedCell(value: unknown): unknown {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value === 'string') {
    return neutralised(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  // jsonb keeps its own key order, so the JSON text is compared parsed.
  return value;
}

interface ExportedFileView {
  id: string;
  field: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  downloadUrl: string;
}

interface ExportedView {
  id: string;
  createdAt: string;
  data: Record<string, unknown>;
  files: ExportedFileView[];
}

describe(`submission exports on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;
  let form: Form;
  // Newest first, as the export lists them.
  let expected: (Sent & { files: { sentName: string }[] })[];

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);

  async function exportLink(
    formId: string,
    format: string,
    spam?: boolean,
    filter?: Record<string, unknown>,
  ): Promise<string> {
    const result = await gql<{ createSubmissionExport: { url: string; expiresAt: string } }>(CREATE_EXPORT, {
      formId,
      format,
      spam,
      filter,
    });
    expect(result.errors).toBeUndefined();
    return result.data!.createSubmissionExport.url;
  }

  async function download(
    formId: string,
    format: string,
    spam?: boolean,
    filter?: Record<string, unknown>,
  ): Promise<Response> {
    const response = await fetch(await exportLink(formId, format, spam, filter));
    expect(response.status).toBe(200);
    return response;
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site, { name: 'Contact: "Ünïcode" / form' });

    const base = Date.UTC(2026, 0, 1, 12, 0, 0);
    const rows = Array.from({ length: ROWS - ROWS_WITH_FILES }, (_, index) => sentRow(index, base));
    // Inserted with SQL in one statement: 10,000 ORM entities would take most of the test's time.
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(
        `insert into "submissions" ("id", "form_id", "data", "created_at", "spam")
         select (r->>'id')::uuid, ?, r->'data', (r->>'createdAt')::timestamptz, false
         from jsonb_array_elements(?::jsonb) as r`,
        [
          form.id,
          JSON.stringify(
            rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), data: stored(row.sent) })),
          ),
        ],
        'run',
      );
    const withFiles: (Sent & { files: { sentName: string }[] })[] = [];
    for (let index = 0; index < ROWS_WITH_FILES; index += 1) {
      const row = sentRow(ROWS + index, base + ROWS);
      const sentNames = [`cv ${index} <final>.pdf`, `=photo-${index}.png`];
      const files = [
        sampleFile({ field: 'cv', name: storeText(sentNames[0]!) }),
        sampleFile({ field: 'photo', name: storeText(sentNames[1]!) }),
      ];
      const made = await makeSubmission(admin.services, form, {
        data: stored(row.sent) as Record<string, unknown>,
        createdAt: row.createdAt,
        files,
      });
      withFiles.push({ ...row, id: made.submission.id, files: sentNames.map((sentName) => ({ sentName })) });
    }
    // One spam submission, which the inbox export must not hold.
    await makeSubmission(admin.services, form, { data: { name: 'spam' } });
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(`update "submissions" set "spam" = true where "data"->>'name' = 'spam'`, [], 'run');

    expected = [...rows.map((row) => ({ ...row, files: [] })), ...withFiles].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('answers a signed link for a live form, and NOT_FOUND or BAD_USER_INPUT otherwise', async () => {
    const result = await gql(CREATE_EXPORT, { formId: form.id, format: 'CSV' });
    const link = result.data!.createSubmissionExport as { url: string; expiresAt: string };
    expect(link.url).toMatch(new RegExp(`^${admin.url}/exports/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    const ttlMs = new Date(link.expiresAt).getTime() - Date.now();
    expect(ttlMs).toBeGreaterThan(200_000);
    expect(ttlMs).toBeLessThanOrEqual(300_000);

    expect(codes(await gql(CREATE_EXPORT, { formId: randomUUID(), format: 'CSV' }))).toEqual(['NOT_FOUND']);
    expect(codes(await gql(CREATE_EXPORT, { formId: 'nope', format: 'CSV' }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await admin.gql(CREATE_EXPORT, { formId: form.id, format: 'CSV' }))).toEqual(['UNAUTHENTICATED']);
  });

  it('exports 10,000 rows as CSV that a real parser reads back as the stored data, formulas neutralised', async () => {
    const response = await download(form.id, 'CSV');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const disposition = response.headers.get('content-disposition')!;
    const today = new Date().toISOString().slice(0, 10);
    expect(disposition).toContain(`filename="Contact_ _Unicode_ _ form-${today}.csv"`);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(`Contact_ _Ünïcode_ _ form-${today}.csv`)}`);

    const bytes = Buffer.from(await response.arrayBuffer());
    // UTF-8 with a byte order mark, RFC 4180 line breaks.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n').length).toBeGreaterThan(ROWS);

    const records: string[][] = parse(text, { bom: true, relax_column_count: false });
    const [header, ...body] = records;
    const keys = [...KEYS].sort((a, b) => (a < b ? -1 : 1));
    expect(header).toEqual([
      'id',
      'createdAt',
      'status',
      'assignee',
      ...keys.map((key) => (key === 'id' ? 'data.id' : neutralised(key))),
      'sanitizedFields',
      'files',
      'fileLinks',
    ]);
    expect(body).toHaveLength(ROWS);
    const nestedColumns = new Set(['address', 'tags'].map((key) => 4 + keys.indexOf(key)));
    const fileLink = new RegExp(`^${admin.url}/files/[0-9a-f-]{36}\\?expires=\\d+&sig=[A-Za-z0-9_-]{43}$`);
    // Links compared by shape (they carry their own expiry), the rest cell by cell.
    const actual = body.map((record) =>
      record.map((cell, column) =>
        nestedColumns.has(column)
          ? JSON.parse(cell)
          : column === record.length - 1
            ? cell.split('\n').filter((link) => fileLink.test(link)).length
            : cell,
      ),
    );
    const wanted = expected.map((row) => [
      row.id,
      row.createdAt.toISOString(),
      'new',
      '',
      ...keys.map((key) => expectedCell(row.sent[key])),
      '',
      row.files.length === 0 ? '' : neutralised(row.files.map((file) => file.sentName).join('\n')),
      row.files.length,
    ]);
    // One native comparison: 10,000 jest matchers would hold the event loop for seconds.
    if (!isDeepStrictEqual(actual, wanted)) {
      expect(actual).toEqual(wanted);
    }

    // The file columns: names as sent, one per line, and links that download the bytes.
    const withFiles = body.find((record) => record.at(-1) !== '')!;
    const names = withFiles.at(-2)!.split('\n');
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^cv \d+ <final>\.pdf$/);
    // Each line can start a row in a `;` locale: neutralised on its own.
    expect(names[1]).toMatch(/^'=photo-\d+\.png$/);
    const links = withFiles.at(-1)!.split('\n');
    expect(links).toHaveLength(2);
    const file = await fetch(links[0]!);
    expect(file.status).toBe(200);
    expect(await file.text()).toMatch(/^sample /);
    // Valid a day (EXPORT_DOWNLOAD_URL_TTL_SECONDS), not the five minutes of a console link.
    const expires = Number(new URL(links[0]!).searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
  });

  it("neutralises formula variants, quotes every locale's separators, and reads back by the documented rule", async () => {
    // Field name → [value as sent, the cell a spreadsheet user should see].
    const cases: Record<string, [unknown, string]> = {
      // A `;` or tab locale starts a cell after each of those, and a row after each line break.
      semicolon: [';=1+1', ";'=1+1"],
      between: ['x;=1+1;y', "x;'=1+1;y"],
      tabInside: ['a\t=1+1', "a\t'=1+1"],
      bullets: ['Hello,\n- one\r\n  + two', "Hello,\n'- one\r\n'  + two"],
      space: [' =1+1', "' =1+1"],
      noBreakSpace: ['\u00A0=1+1', "'\u00A0=1+1"],
      zeroWidthSpace: ['\u200B=1+1', "'\u200B=1+1"],
      byteOrderMark: ['\uFEFF+1+1', "'\uFEFF+1+1"],
      lineFeed: ['\n@SUM(1,2)', "'\n'@SUM(1,2)"],
      crlf: ['\r\n-1+1', "'\r\n'-1+1"],
      tab: ['\t=1', "'\t'=1"],
      leadingTab: ['\tplain', "'\tplain"],
      wideSpaces: ['\u2003\u3000 =1', "'\u2003\u3000 =1"],
      wordJoiner: ['\u2060-2+3', "'\u2060-2+3"],
      fullWidth: ['\uFF1D1+1', "'\uFF1D1+1"],
      smallForm: ['\uFE66HYPERLINK("http://evil.example")', '\'\uFE66HYPERLINK("http://evil.example")'],
      phone: ['+33 6 12 34 56 78', "'+33 6 12 34 56 78"],
      apostrophe: ["'=1+1", "''=1+1"],
      plainApostrophe: ["'tis", "'tis"],
      percent: ['%20 off', '%20 off'],
      pipe: ['| a | b |', '| a | b |'],
      negativeText: ['-2', "'-2"],
      negativeNumber: [-2, '-2'],
      ' =total': ['x', 'x'],
      'a;b': ['y', 'y'],
    };
    const variants = await makeForm(admin.services, site, { name: 'Variants' });
    const sent = Object.fromEntries(Object.entries(cases).map(([key, [value]]) => [key, value]));
    await makeSubmission(admin.services, variants, { data: stored(sent) as Record<string, unknown> });
    const bytes = Buffer.from(await (await download(variants.id, 'CSV')).arrayBuffer());
    const text = bytes.toString('utf8');

    // Read as RFC 4180 (a comma locale): one cell per field, neutralised where a formula could start.
    const [header, row, ...rest] = parse(text, { bom: true }) as string[][];
    expect(rest).toHaveLength(0);
    const keys = Object.keys(cases).sort((a, b) => (a < b ? -1 : 1));
    // id, createdAt, status, assignee, the fields, then sanitizedFields, files and fileLinks.
    expect(header!.slice(4, -3)).toEqual(keys.map((key) => (key === ' =total' ? "' =total" : key)));
    expect(Object.fromEntries(keys.map((key, index) => [key, row![4 + index]]))).toEqual(
      Object.fromEntries(keys.map((key) => [key, cases[key]![1]])),
    );

    // Read as a `;` or a tab locale would: every cell holding that separator is quoted, so no cell
    // starts (past blanks and invisible characters) with a formula character, unless it is a number.
    expect(text).toContain(`";'=1+1"`);
    expect(text).toContain(`"a\t'=1+1"`);
    expect(text).toContain('"a;b"');
    const formulaStart = /^[\p{White_Space}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63]/u;
    for (const delimiter of [';', '\t']) {
      const cells = (
        parse(text, { bom: true, delimiter, relax_quotes: true, relax_column_count: true }) as string[][]
      ).flat();
      const formulas = cells.filter((cell) => formulaStart.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell));
      expect({ delimiter, formulas }).toEqual({ delimiter, formulas: [] });
    }

    // The rule docs/admin-api.md gives readers: cut the cell at each `;`, tab, CR, LF or CRLF; drop
    // the first ' of a piece when what follows its leading apostrophes starts, past blanks and
    // invisible characters, with = + - @ (or a form Unicode folds to one), and of a first piece of
    // apostrophes only that a tab or a line break follows. It gives back every value as sent.
    const readBack = (cell: string): string =>
      cell
        .split(/(\r\n|[;\t\r\n])/)
        .map((piece, index, pieces) => {
          if (index % 2 === 1 || !piece.startsWith("'")) {
            return piece;
          }
          const past = piece.replace(/^'+/, '');
          const first = past
            .replace(/^[\p{White_Space}\p{Cc}\p{Cf}]+/u, '')
            .normalize('NFKC')
            .charAt(0);
          const beforeBreak = index === 0 && past === '' && /^[\t\r\n]/.test(pieces[1] ?? '');
          return ['=', '+', '-', '@'].includes(first) || beforeBreak ? piece.slice(1) : piece;
        })
        .join('');
    expect(Object.fromEntries(keys.map((key, index) => [key, readBack(row![4 + index]!)]))).toEqual(
      Object.fromEntries(keys.map((key) => [key, String(sent[key])])),
    );
  });

  it('exports JSON and NDJSON that parse back to the stored data, in the shape of the API', async () => {
    const json = await download(form.id, 'JSON');
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(json.headers.get('content-disposition')).toMatch(/\.json"/);
    const fromJson = (await json.json()) as ExportedView[];

    const ndjson = await download(form.id, 'NDJSON');
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
    expect(ndjson.headers.get('content-disposition')).toMatch(/\.ndjson"/);
    const lines = (await ndjson.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    const fromNdjson = lines.slice(0, -1).map((line) => JSON.parse(line) as ExportedView);

    for (const exported of [fromJson, fromNdjson]) {
      expect(exported).toHaveLength(ROWS);
      const got = exported.map((row) => ({ id: row.id, createdAt: row.createdAt, data: row.data }));
      const want = expected.map((row) => ({
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        data: stored(row.sent),
      }));
      if (!isDeepStrictEqual(got, want)) {
        expect(got).toEqual(want);
      }
      const withFiles = exported.find((row) => row.files.length > 0)!;
      expect(withFiles.files.map((file) => file.field)).toEqual(['cv', 'photo']);
      expect(withFiles.files[0]!.name).toMatch(/^cv \d+ &lt;final&gt;\.pdf$/);
      expect((await fetch(withFiles.files[1]!.downloadUrl)).status).toBe(200);
    }
  });

  it('exports exactly what the inbox lists with the same filter, and refuses a bad filter', async () => {
    const filter = {
      query: 'CALC',
      createdAfter: new Date(Date.UTC(2026, 0, 1, 12, 0, 3)).toISOString(),
      hasFiles: false,
    };
    const listed: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { submissions: { totalCount: number; edges: { node: { id: string } }[]; pageInfo: any } } = (
        await gql(PAGE, { formId: form.id, filter, after })
      ).data as any;
      listed.push(...page.submissions.edges.map((edge) => edge.node.id));
      if (!page.submissions.pageInfo.hasNextPage) {
        break;
      }
      after = page.submissions.pageInfo.endCursor;
    }
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.length).toBeLessThan(ROWS / 10);
    const lines = (await (await download(form.id, 'NDJSON', false, filter)).text()).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as ExportedView).id)).toEqual(listed);

    const withFiles = (await (await download(form.id, 'JSON', false, { hasFiles: true })).json()) as ExportedView[];
    expect(withFiles).toHaveLength(ROWS_WITH_FILES);

    const refused = await gql(CREATE_EXPORT, { formId: form.id, format: 'CSV', filter: { query: 'ab' } });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions!.field).toBe('filter.query');
  });

  it('exports the Spam view apart from the inbox', async () => {
    const records: string[][] = parse(await (await download(form.id, 'CSV', true)).text(), { bom: true });
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual([
      'id',
      'createdAt',
      'status',
      'assignee',
      'name',
      'sanitizedFields',
      'files',
      'fileLinks',
    ]);
    expect(records[1]![4]).toBe('spam');
  });

  it("heads a CSV's field columns in the form's declared order, then the others", async () => {
    const declared = await makeForm(admin.services, site, {
      name: 'Declared',
      fieldsSchema: toJsonSchema(
        ['name', 'email', 'about'].map((name) => ({
          name,
          type: 'text' as const,
          required: false,
          maxLength: null,
          choices: null,
        })),
      ),
    });
    // Sent before the form declared its fields: `zip` and `company` are no declared field.
    await makeSubmission(admin.services, declared, { data: { zip: '1', company: 'ACME', email: 'a@example.com' } });
    const csv = Buffer.from(await (await download(declared.id, 'CSV')).arrayBuffer()).toString('utf8');
    const [header] = parse(csv, { bom: true }) as string[][];
    expect(header).toEqual([
      'id',
      'createdAt',
      'status',
      'assignee',
      'name',
      'email',
      'about',
      'company',
      'zip',
      'sanitizedFields',
      'files',
      'fileLinks',
    ]);
  });

  it('exports an empty form as a header only, an empty array, or nothing', async () => {
    const empty = await makeForm(admin.services, site, { name: 'Empty' });
    // fetch's text() drops a byte order mark: read the bytes.
    const csv = Buffer.from(await (await download(empty.id, 'CSV')).arrayBuffer()).toString('utf8');
    expect(csv).toBe('\uFEFFid,createdAt,status,assignee,sanitizedFields,files,fileLinks\r\n');
    expect(await (await download(empty.id, 'JSON')).json()).toEqual([]);
    expect(await (await download(empty.id, 'NDJSON')).text()).toBe('');
  });

  it('answers 404 for an altered, forged or expired link and for a deleted form', async () => {
    const url = new URL(await exportLink(form.id, 'NDJSON', false, { hasFiles: true }));
    const [payload, signature] = url.pathname.slice('/exports/'.length).split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;

    const attempts = [
      // The spam view instead of the inbox, or no filter instead of one, signature kept.
      `${Buffer.from(JSON.stringify({ ...decoded, spam: true })).toString('base64url')}.${signature}`,
      `${Buffer.from(JSON.stringify({ ...decoded, filter: NO_SUBMISSION_FILTER })).toString('base64url')}.${signature}`,
      // One character of the signature changed.
      `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      `${payload}.`,
      payload,
      'nonsense',
    ];
    for (const attempt of attempts) {
      const response = await fetch(`${admin.url}/exports/${attempt}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('Not found');
    }

    // Signed with the right key, but expired a second ago.
    const links = createExportLinks({
      jwtSecret: admin.services.config.jwtSecret,
      ttlSeconds: 300,
      publicOrigin: () => admin.url,
    });
    const expired = links.sign(
      { formId: form.id, format: 'CSV', spam: false, filter: NO_SUBMISSION_FILTER, notes: false },
      new Date(Date.now() - 301_000),
    );
    expect((await fetch(expired.url)).status).toBe(404);
    const fresh = links.sign({
      formId: form.id,
      format: 'CSV',
      spam: false,
      filter: NO_SUBMISSION_FILTER,
      notes: false,
    });
    expect((await fetch(fresh.url, { method: 'HEAD' })).status).toBe(200);

    // A form deleted after the link was made.
    const doomed = await makeForm(admin.services, site, { name: 'Doomed' });
    const doomedUrl = await exportLink(doomed.id, 'CSV');
    expect((await gql(`mutation($id: ID!) { deleteForm(id: $id) }`, { id: doomed.id })).errors).toBeUndefined();
    expect((await fetch(doomedUrl)).status).toBe(404);
    expect(codes(await gql(CREATE_EXPORT, { formId: doomed.id, format: 'CSV' }))).toEqual(['NOT_FOUND']);
  });

  it('stops reading from the database when the reader goes away', async () => {
    const batches: number[] = [];
    const links = createDownloadLinks({ jwtSecret: 'x'.repeat(32), ttlSeconds: 60, publicOrigin: () => admin.url });
    const stream = Readable.from(
      jsonChunks(
        readSubmissionBatches(
          admin.services.db.em.fork(),
          { formId: form.id, spam: false, filter: NO_SUBMISSION_FILTER },
          {
            batchSize: 100,
            onBatch: (rows) => batches.push(rows),
          },
        ),
        links,
      ),
      { objectMode: false, highWaterMark: 1024 },
    );
    await new Promise<void>((resolve) => stream.once('readable', () => resolve()));
    stream.read();
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 10,000 rows are 100 batches; a reader that left after the first chunk costs a couple.
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.length).toBeLessThanOrEqual(3);
  });
});
