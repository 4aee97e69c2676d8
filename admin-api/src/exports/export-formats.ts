// The text of an export, produced batch by batch from the rows the reader yields, so nothing holds
// more than one batch. JSON and NDJSON carry the stored values exactly as the GraphQL `Submission`
// does; CSV is for spreadsheets, so its cells hold the text as it was sent (decoded once) with
// formula-looking cells neutralised (csv-cells.ts). All three say which values lost markup to the
// sanitiser (`sanitizedFields`), so a value read from an export is never taken for what was sent when it is not.
import { stringify, type Options } from 'csv-stringify/sync';
import type { DownloadLinks } from '../lib/download-link.js';
// The subpath, not the package: the export process must not load the ORM (export-process.ts).
import { decodeStoredText } from '@intake/shared/stored-text';
import { neutraliseFormula, OTHER_LOCALE_SEPARATORS } from './csv-cells.js';
import type { ExportFormat } from './export-link.js';
import type { ExportedNote, ExportedSubmission } from './export-rows.js';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json',
  NDJSON: 'application/x-ndjson',
};

export const FILE_EXTENSIONS: Record<ExportFormat, string> = { CSV: 'csv', JSON: 'json', NDJSON: 'ndjson' };

/**
 * One submission as the GraphQL `Submission` answers it (stored values, files with their links), as
 * JSON text. The stored fields are the database's own JSON text, spliced in without a parse.
 */
function presentRow(row: ExportedSubmission, links: DownloadLinks): string {
  const files = row.files.map((file) => ({ ...file, downloadUrl: links.urlFor(file.id) }));
  const notes = row.notes ? `,"notes":${JSON.stringify(row.notes)}` : '';
  return (
    `{"id":${JSON.stringify(row.id)},"createdAt":"${row.createdAt.toISOString()}",` +
    `"status":${JSON.stringify(row.status)},"assignee":${JSON.stringify(row.assignee)},` +
    `"data":${row.dataJson},"sanitizedFields":${row.sanitizedFieldsJson},"files":${JSON.stringify(files)}${notes}}`
  );
}

/** `[` + one object per submission + `]`, written as the batches come. */
export async function* jsonChunks(
  batches: AsyncIterable<ExportedSubmission[]>,
  links: DownloadLinks,
): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    let chunk = '';
    for (const row of batch) {
      chunk += `${first ? '\n' : ',\n'}${presentRow(row, links)}`;
      first = false;
    }
    yield chunk;
  }
  yield first ? ']\n' : '\n]\n';
}

/** One JSON object per line. */
export async function* ndjsonChunks(
  batches: AsyncIterable<ExportedSubmission[]>,
  links: DownloadLinks,
): AsyncGenerator<string> {
  for await (const batch of batches) {
    yield batch.map((row) => `${presentRow(row, links)}\n`).join('');
  }
}

// The columns before and after the fields (`notes` only when asked). A field of the same name is
// headed `data.<name>`.
const LEADING_COLUMNS = ['id', 'createdAt', 'status', 'assignee'] as const;
const TRAILING_COLUMNS = ['notes', 'sanitizedFields', 'files', 'fileLinks'] as const;
// Several files (or sanitised paths) in one cell, one per line (a spreadsheet shows them stacked).
const FILE_SEPARATOR = '\n';

export interface CsvColumns {
  /** Header cells, in order. */
  headers: string[];
  /** The field name of each field column, in the same order as its header. */
  fields: string[];
  /** Whether the `notes` column is there. */
  notes: boolean;
}

/** The header row for these field names: fixed columns first, then the fields, then notes and files. */
export function csvColumns(fieldNames: readonly string[], notes = false): CsvColumns {
  const trailing = TRAILING_COLUMNS.filter((column) => notes || column !== 'notes');
  const taken = new Set<string>([...LEADING_COLUMNS, ...trailing]);
  const fieldHeaders = fieldNames.map((name) => {
    let header = name;
    while (taken.has(header)) {
      header = `data.${header}`;
    }
    taken.add(header);
    return header;
  });
  return { headers: [...LEADING_COLUMNS, ...fieldHeaders, ...trailing], fields: [...fieldNames], notes };
}

/**
 * A stored value (its JSON text, null when the submission lacks the field) as spreadsheet text:
 * strings decoded, nested values as JSON text with their strings decoded too.
 */
function cellOf(json: string | null): string | number | undefined {
  if (json === null || json === 'null') {
    return undefined;
  }
  switch (json[0]) {
    case '"':
      return decodeStoredText(JSON.parse(json) as string);
    case '{':
    case '[':
      return JSON.stringify(JSON.parse(json), (_key, inner: unknown) =>
        typeof inner === 'string' ? decodeStoredText(inner) : inner,
      );
    case 't':
    case 'f':
      return json;
    default: {
      // A number that JavaScript holds exactly stays a number, so csv-stringify knows `-2` is not a
      // formula; a longer one stays text as stored (neutralised if negative, which is harmless).
      const number = Number(json);
      return String(number) === json ? number : json;
    }
  }
}

/** Each note on its own line, `<time> <author>: <text>`, its text as it was written (decoded once). */
function notesCell(notes: readonly ExportedNote[]): string {
  return notes
    .map(
      (note) => `${note.createdAt.toISOString()} ${note.author ?? '(removed member)'}: ${decodeStoredText(note.text)}`,
    )
    .join(FILE_SEPARATOR);
}

const CSV_OPTIONS = {
  // RFC 4180: CRLF between records, fields quoted when they hold a comma, quote or line break,
  // and here also `;` or a tab, the list separators of other locales.
  record_delimiter: 'windows',
  quoted_match: [OTHER_LOCALE_SEPARATORS],
  // Every text cell, headers too, with formula-looking text neutralised (csv-cells.ts); numbers
  // are not text, so `-2` stays `-2`. csv-stringify's own `escape_formulas` is a subset of it.
  cast: { string: neutraliseFormula },
} satisfies Options;

/**
 * UTF-8 with a byte order mark (Excel reads a CSV without one in the local code page and garbles
 * accents), the header row, then one record per submission.
 */
export async function* csvChunks(
  batches: AsyncIterable<ExportedSubmission[]>,
  columns: CsvColumns,
  links: DownloadLinks,
): AsyncGenerator<string> {
  yield `\uFEFF${stringify([columns.headers], CSV_OPTIONS)}`;
  for await (const batch of batches) {
    const records = batch.map((row) => [
      row.id,
      row.createdAt.toISOString(),
      row.status,
      row.assignee ?? undefined,
      ...row.fieldsJson.map(cellOf),
      ...(columns.notes ? [notesCell(row.notes ?? [])] : []),
      (JSON.parse(row.sanitizedFieldsJson) as string[]).join(FILE_SEPARATOR),
      row.files.map((file) => decodeStoredText(file.name)).join(FILE_SEPARATOR),
      row.files.map((file) => links.urlFor(file.id)).join(FILE_SEPARATOR),
    ]);
    yield stringify(records, CSV_OPTIONS);
  }
}
