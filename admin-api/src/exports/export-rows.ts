// The rows of an export, newest first as the inbox lists them, read in keyset batches of BATCH_SIZE
// rather than through a server-side cursor: a cursor would hold a transaction and a pooled connection
// (on PGlite the only one) for as long as the download takes, and hold back vacuum; a batch is one
// short query on the (form, spam, created_at, id) index, and memory stays at one batch. The same code
// runs on PostgreSQL and PGlite, in the admin API (MikroORM's connection) or in the export process
// (export-process.ts, its own `pg` client). Rows arriving during the export sort before the keyset
// position and are not picked up; rows deleted meanwhile may be missing. The guarantees:
// docs/submissions.md ("Exporting submissions").
import type { Em } from '@intake/shared/db';
import { fromJsonSchema, type FormJsonSchema } from '@intake/shared/form-shape';
import type { StoredFileDescription } from '@intake/shared/stored-file-description';
import { submissionFilterSql, type SqlCondition, type SubmissionFilter } from '../lib/submission-filter.js';

export const BATCH_SIZE = 1000;

/** Runs one query (`?` placeholders) and answers its rows. */
export type RunSql = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** Where the rows come from: an entity manager's connection, or any runner of raw SQL. */
export type SqlSource = Em | RunSql;

const runnerOf = (source: SqlSource): RunSql =>
  typeof source === 'function'
    ? source
    : <T>(sql: string, params: unknown[]) => source.getConnection().execute<T[]>(sql, params, 'all');

/** Which submissions an export holds: exactly what the inbox (or Spam view) shows with this filter. */
export interface ExportScope {
  formId: string;
  /** The Spam view (true) or the inbox (false). */
  spam: boolean;
  filter: SubmissionFilter;
}

/** `name` is stored (HTML-escaped), as the API answers it. */
export type ExportedFile = StoredFileDescription;

/** An internal note as an export carries it: the author's name (or e-mail), null once removed. */
export interface ExportedNote {
  author: string | null;
  createdAt: Date;
  /** As stored (HTML-escaped), like the fields. */
  text: string;
}

export interface ExportedSubmission {
  id: string;
  createdAt: Date;
  /** The inbox status: new, open, done or archived. */
  status: string;
  /** The assignee's name (or e-mail when they have none), null for nobody. */
  assignee: string | null;
  /** Oldest first; only when the export was asked for them. */
  notes?: ExportedNote[];
  /** The stored fields as JSON text (`data` mode), spliced into JSON output without a parse. */
  dataJson: string;
  /** The JSON text of each requested field, null where absent (`fields` mode). */
  fieldsJson: (string | null)[];
  /** The JSON text of the paths whose markup the sanitiser removed (an array of strings). */
  sanitizedFieldsJson: string;
  /** In the order they were sent. */
  files: ExportedFile[];
}

export interface ReadOptions {
  /**
   * Read these fields, each as its own JSON text (a CSV's columns), instead of the whole object.
   * Either way the database hands over text, not a parsed tree: a million rows of parsed objects
   * are a garbage rate that grows the heap far past one batch.
   */
  fields?: readonly string[];
  /** Read each submission's internal notes too. */
  notes?: boolean;
  batchSize?: number;
  /** Called after each batch is read (tests watch reading stop when a client goes away). */
  onBatch?: (rows: number) => void;
}

// The submissions connection's own condition, so an export holds what the inbox lists.
const scopeCondition = (scope: ExportScope): SqlCondition =>
  submissionFilterSql(scope.formId, scope.spam, scope.filter, 's');

interface SubmissionRow {
  id: string;
  created_at: Date | string;
  // The exact stored timestamp (microseconds), so the keyset never skips or repeats a row.
  position: string;
  status: string;
  assignee: string | null;
  data?: string;
  sanitized_fields: string;
  [field: `f${number}`]: string | null;
}

interface FileRow {
  id: string;
  submission_id: string;
  field: string;
  name: string;
  mime_type: string;
  size: number | string;
  sha256: string;
}

/**
 * The CSV's field columns: the form's declared fields in their declared order, then any other field
 * the scope's submissions hold (sent before the form declared its fields), in code point order.
 */
export async function fieldNames(source: SqlSource, scope: ExportScope): Promise<string[]> {
  const run = runnerOf(source);
  const where = scopeCondition(scope);
  // One pass over the scope before the first row: the CSV header needs every column up front.
  const rows = await run<{ key: string }>(
    `select distinct jsonb_object_keys(s."data") as "key" from "submissions" s where ${where.sql}`,
    where.params,
  );
  const [form] = await run<{ fields_schema: FormJsonSchema | string | null }>(
    `select "fields_schema" from "forms" where "id" = ?`,
    [scope.formId],
  );
  // A json column keeps the declared order; a driver may hand it over as text.
  const schema = typeof form?.fields_schema === 'string' ? JSON.parse(form.fields_schema) : form?.fields_schema;
  const declared = schema ? fromJsonSchema(schema as FormJsonSchema).map((field) => field.name) : [];
  const others = rows
    .map((row) => row.key)
    .filter((key) => !declared.includes(key))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...declared, ...others];
}

async function filesOf(run: RunSql, submissionIds: string[]): Promise<Map<string, ExportedFile[]>> {
  const grouped = new Map<string, ExportedFile[]>();
  if (submissionIds.length === 0) {
    return grouped;
  }
  const placeholders = submissionIds.map(() => '?').join(', ');
  const rows = await run<FileRow>(
    `select "id", "submission_id", "field", "name", "mime_type", "size", "sha256" from "stored_files" ` +
      `where "submission_id" in (${placeholders}) order by "submission_id", "position", "id"`,
    submissionIds,
  );
  for (const row of rows) {
    const list = grouped.get(row.submission_id) ?? [];
    list.push({
      id: row.id,
      field: row.field,
      name: row.name,
      mimeType: row.mime_type,
      size: Number(row.size),
      sha256: row.sha256,
    });
    grouped.set(row.submission_id, list);
  }
  return grouped;
}

interface NoteRow {
  submission_id: string;
  author: string | null;
  text: string;
  created_at: Date | string;
}

async function notesOf(run: RunSql, submissionIds: string[]): Promise<Map<string, ExportedNote[]>> {
  const grouped = new Map<string, ExportedNote[]>();
  const placeholders = submissionIds.map(() => '?').join(', ');
  const rows = await run<NoteRow>(
    `select n."submission_id", coalesce(nullif(u."name", ''), u."email") as "author", n."text", n."created_at" ` +
      `from "submission_notes" n left join "admin_users" u on u."id" = n."author_id" ` +
      `where n."submission_id" in (${placeholders}) order by n."submission_id", n."created_at", n."id"`,
    submissionIds,
  );
  for (const row of rows) {
    const list = grouped.get(row.submission_id) ?? [];
    list.push({ author: row.author, createdAt: new Date(row.created_at), text: row.text });
    grouped.set(row.submission_id, list);
  }
  return grouped;
}

/** The scope's submissions with their files, newest first, one batch at a time. */
export async function* readSubmissionBatches(
  source: SqlSource,
  scope: ExportScope,
  options: ReadOptions = {},
): AsyncGenerator<ExportedSubmission[]> {
  const run = runnerOf(source);
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const where = scopeCondition(scope);
  const fields = options.fields;
  // Field names are parameters, never SQL: `s.data -> ?` is the field's value as jsonb, cast to text.
  const selected =
    fields === undefined
      ? { sql: `s."data"::text as "data"`, params: [] as unknown[] }
      : {
          sql: fields.map((_, index) => `(s."data" -> ?)::text as "f${index}"`).join(', ') || `null as "f"`,
          params: [...fields],
        };
  let after: { position: string; id: string } | null = null;
  for (;;) {
    const keyset: SqlCondition =
      after === null
        ? { sql: '', params: [] }
        : { sql: ` and (s."created_at", s."id") < (?::timestamptz, ?::uuid)`, params: [after.position, after.id] };
    const rows: SubmissionRow[] = await run<SubmissionRow>(
      `select s."id", s."created_at", s."status", ` +
        `(select coalesce(nullif(u."name", ''), u."email") from "admin_users" u where u."id" = s."assignee_id") as "assignee", ` +
        `${selected.sql}, s."sanitized_fields"::text as "sanitized_fields", ` +
        `to_char(s."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "position" ` +
        `from "submissions" s where ${where.sql}${keyset.sql} ` +
        `order by s."created_at" desc, s."id" desc limit ?`,
      [...selected.params, ...where.params, ...keyset.params, batchSize],
    );
    options.onBatch?.(rows.length);
    if (rows.length === 0) {
      return;
    }
    const ids = rows.map((row) => row.id);
    const files = await filesOf(run, ids);
    const notes = options.notes ? await notesOf(run, ids) : null;
    yield rows.map((row) => ({
      id: row.id,
      createdAt: new Date(row.created_at),
      status: row.status,
      assignee: row.assignee,
      ...(notes ? { notes: notes.get(row.id) ?? [] } : {}),
      dataJson: row.data ?? '{}',
      fieldsJson: fields === undefined ? [] : fields.map((_, index) => row[`f${index}`] ?? null),
      sanitizedFieldsJson: row.sanitized_fields,
      files: files.get(row.id) ?? [],
    }));
    if (rows.length < batchSize) {
      return;
    }
    const last = rows.at(-1)!;
    after = { position: last.position, id: last.id };
  }
}
