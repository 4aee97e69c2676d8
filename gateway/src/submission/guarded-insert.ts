// The SQL of the submission store (submission-store.ts): the guarded INSERT and the acceptance check.
// The site and form of a request may come from the gateway's cache, which hears of a change a few
// milliseconds after it commits (longer on a busy machine). The write re-checks what security rests
// on — the token's control code, the site not deleted, the form enabled and not deleted — in the
// database, so a submission sent after a rotation, disabling or deletion was answered is refused
// even when the news has not reached this process yet. On the single-statement path the check rides
// inside the INSERT itself: no extra round trip.
import { randomUUID } from 'node:crypto';
import { executePrepared, preparedStatement, type Database, type Em, type PreparedStatement } from '@intake/shared/db';
import type { Site } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';

const ACCEPTING = `exists (select 1 from "forms" f join "sites" s on s."id" = f."site_id"
  where f."id" = ? and f."enabled" and f."deleted_at" is null and s."deleted_at" is null and s."control_code" = ?)`;

const GUARDED_INSERT = `insert into "submissions"
  ("id", "form_id", "data", "sanitized_fields", "created_at", "idempotency_key", "spam", "spam_reason", "content_hash", "receipt")
  select ?::uuid, ?::uuid, ?::jsonb, ?::jsonb, ?::timestamptz, ?, ?, ?, ?, ? where ${ACCEPTING}`;

/** A file row of a submission: the object is stored already, under `storageKey`. */
export interface FileRow {
  field: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

/** A submission whose write is one statement: no delivery, no duplicate filter; its files, if any. */
export interface SingleStatementSubmission {
  /** Given by the caller: the receipt signed before the write names them. */
  id: string;
  createdAt: Date;
  formId: string;
  data: Record<string, unknown>;
  /** The JSON paths of the values the sanitiser removed markup from. */
  sanitizedFields: readonly string[];
  idempotencyKey: string | null;
  spamReason: string | null;
  receipt: string;
  files: readonly FileRow[];
}

const INSERT_SUBMISSION = preparedStatement('intake_insert_submission', GUARDED_INSERT);

// One prepared statement per file count, made on first use; the count per submission is bounded (MAX_FILES).
const insertsWithFiles = new Map<number, PreparedStatement>();

/** The guarded INSERT feeding the file rows' INSERT: both land, or neither (one statement). */
function insertWithFiles(fileCount: number): PreparedStatement {
  const made = insertsWithFiles.get(fileCount);
  if (made) {
    return made;
  }
  const values = Array.from({ length: fileCount }, () => '(?::uuid, ?::int, ?, ?, ?, ?::int, ?, ?)').join(', ');
  const statement = preparedStatement(
    `intake_insert_submission_${fileCount}_files`,
    `with "submission" as (${GUARDED_INSERT} returning "id")
  insert into "stored_files"
    ("id", "submission_id", "position", "field", "name", "mime_type", "size", "sha256", "storage_key", "created_at")
  select f."id", s."id", f."position", f."field", f."name", f."mime_type", f."size", f."sha256", f."storage_key", ?::timestamptz
  from "submission" s cross join (values ${values})
    as f("id", "position", "field", "name", "mime_type", "size", "sha256", "storage_key")`,
  );
  insertsWithFiles.set(fileCount, statement);
  return statement;
}

export interface InsertedSubmission {
  /** The file rows' ids, in the order given. */
  fileIds: string[];
}

/**
 * The busiest writes without the ORM's entity machinery (an entity, a form reference and an
 * EntityManager fork cost about a third of a plain submission's CPU; with files, BEGIN, the
 * acceptance check, two INSERTs and COMMIT were five round trips): the guarded INSERT, with its
 * file rows in the same statement, prepared once per connection (planning it cost more than running
 * it), through the driver MikroORM holds (its pool on PostgreSQL, PGlite's single connection).
 * Returns the file rows' ids, or null when the form or site no longer accepts it. Errors are
 * converted as from a flush (a repeated idempotency key is a UniqueConstraintViolationException).
 */
export async function insertSingleStatementIfAccepting(
  db: Database,
  row: SingleStatementSubmission,
  site: Site,
): Promise<InsertedSubmission | null> {
  const { id, createdAt } = row;
  const fileIds = row.files.map(() => randomUUID());
  const submissionParams = [
    id,
    row.formId,
    JSON.stringify(row.data),
    JSON.stringify(row.sanitizedFields),
    createdAt,
    row.idempotencyKey,
    row.spamReason !== null,
    row.spamReason,
    null,
    row.receipt,
    row.formId,
    site.controlCode,
  ];
  const fileParams = row.files.flatMap((file, position) => [
    fileIds[position],
    position,
    file.field,
    file.name,
    file.mimeType,
    file.size,
    file.sha256,
    file.storageKey,
  ]);
  try {
    const affectedRows = await executePrepared(
      db,
      row.files.length === 0 ? INSERT_SUBMISSION : insertWithFiles(row.files.length),
      row.files.length === 0 ? submissionParams : [...submissionParams, createdAt, ...fileParams],
    );
    // With files, the rows counted are the files': all of them, or none when the guard refused.
    return affectedRows === Math.max(1, row.files.length) ? { fileIds } : null;
  } catch (error) {
    throw db.driver.convertException(error as Error);
  }
}

/** The same check as a query, for the path that writes several rows in one transaction. */
export async function isStillAccepting(em: Em, formId: string, site: Site): Promise<boolean> {
  // em.execute: inside the caller's transaction when there is one (PGlite has a single connection).
  const rows = await em.execute<{ accepting: boolean }[]>(`select ${ACCEPTING} as "accepting"`, [
    formId,
    site.controlCode,
  ]);
  return rows[0]?.accepting === true;
}

/** Why a submission was refused at the write: read fresh, answered as the middleware would have. */
export async function refusalOf(em: Em, formId: string, site: Site): Promise<AppError> {
  const rows = await em.execute<{ live: boolean }[]>(
    'select ("deleted_at" is null and "control_code" = ?) as "live" from "sites" where "id" = ?',
    [site.controlCode, site.id],
  );
  if (rows[0]?.live !== true) {
    return new AppError('token_invalid', 'The site token is not valid.');
  }
  return new AppError('form_forbidden', 'This form does not accept submissions with these credentials.');
}
