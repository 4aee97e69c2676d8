// The SQL of the submission store (submission-store.ts): the guarded INSERT and the acceptance check.
// The site and form of a request may come from the gateway's cache, which hears of a change a few
// milliseconds after it commits (longer on a busy machine). So every write checks again, in the
// database, whether the form still accepts submissions (acceptance.ts): a submission sent after a
// rotation, disabling or deletion was answered is refused even when the news has not reached this
// process yet. On the single-statement path the check rides inside the INSERT itself.
import { randomUUID } from 'node:crypto';
import {
  executePrepared,
  preparedStatement,
  queryPrepared,
  type Database,
  type Em,
  type PreparedStatement,
} from '@intake/shared/db';
import { SUBMISSION_CREATED, type SubmissionDelivery } from '@intake/shared/delivery';
import type { Site } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { acceptingSql, liveSiteSql } from './acceptance.js';

/** The acceptance check with the form's id and the token's control code as parameters, in that order. */
const ACCEPTING = acceptingSql('?', '?');

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

// The group commit's statement (group-committer.ts): many submissions, their file rows and their
// deliveries (the outbox) in one statement, hence one transaction. The rows travel as two JSON documents, so one prepared statement
// serves every group size. Each row keeps its own guard, and ON CONFLICT DO NOTHING skips a row whose
// Idempotency-Key is taken (by a committed submission or an earlier row of the group) instead of
// failing the statement: the rows not returned were not written, and are written alone after, by
// the single-row path, which knows how to answer them (refusal, replay, key freed).
const GROUP_INSERT = preparedStatement(
  'intake_insert_submission_group',
  `with "given" as (
    select * from jsonb_to_recordset(?::jsonb) as g("id" uuid, "form_id" uuid, "control_code" text, "data" jsonb,
      "sanitized_fields" jsonb, "created_at" timestamptz, "idempotency_key" text, "spam_reason" text, "receipt" text)
  ), "submission" as (
    insert into "submissions"
      ("id", "form_id", "data", "sanitized_fields", "created_at", "idempotency_key", "spam", "spam_reason", "content_hash", "receipt")
    select g."id", g."form_id", g."data", g."sanitized_fields", g."created_at", g."idempotency_key",
      g."spam_reason" is not null, g."spam_reason", null, g."receipt"
    from "given" g
    where ${acceptingSql('g."form_id"', 'g."control_code"')}
    on conflict do nothing
    returning "id"
  ), "file" as (
    insert into "stored_files"
      ("id", "submission_id", "position", "field", "name", "mime_type", "size", "sha256", "storage_key", "created_at")
    select f."id", f."submission_id", f."position", f."field", f."name", f."mime_type", f."size", f."sha256",
      f."storage_key", f."created_at"
    from jsonb_to_recordset(?::jsonb) as f("id" uuid, "submission_id" uuid, "position" int, "field" text, "name" text,
      "mime_type" text, "size" int, "sha256" text, "storage_key" text, "created_at" timestamptz)
    join "submission" s on s."id" = f."submission_id"
  ), "delivery" as (
    insert into "deliveries"
      ("id", "channel", "form_id", "webhook_id", "submission_id", "event_type", "recipients", "next_attempt_at",
        "created_at", "updated_at")
    select d."id", d."channel", d."form_id", d."webhook_id", d."submission_id", d."event_type", d."recipients",
      d."created_at", d."created_at", d."created_at"
    from jsonb_to_recordset(?::jsonb) as d("id" uuid, "channel" text, "form_id" uuid, "webhook_id" uuid,
      "submission_id" uuid, "event_type" text, "recipients" text[], "created_at" timestamptz)
    join "submission" s on s."id" = d."submission_id"
  )
  select "id" from "submission"`,
);

/** A submission of a group, with the control code of the token it came with (checked by the guard). */
export interface GroupedSubmission {
  row: SingleStatementSubmission;
  site: Site;
  /** Its outbox rows (`submissionDeliveries`), written with it in the same statement. */
  deliveries: readonly SubmissionDelivery[];
}

/**
 * The group in one statement: for each submission, its file rows' ids when it was written, or null
 * when it was not (refused by the guard, or its Idempotency-Key taken). A throw means nothing of the
 * group was written; errors are converted as from a flush.
 */
export async function insertGroupIfAccepting(
  db: Database,
  group: readonly GroupedSubmission[],
): Promise<(InsertedSubmission | null)[]> {
  const fileIds = group.map(({ row }) => row.files.map(() => randomUUID()));
  const submissions = group.map(({ row, site }) => ({
    id: row.id,
    form_id: row.formId,
    control_code: site.controlCode,
    data: row.data,
    sanitized_fields: row.sanitizedFields,
    created_at: row.createdAt.toISOString(),
    idempotency_key: row.idempotencyKey,
    spam_reason: row.spamReason,
    receipt: row.receipt,
  }));
  const files = group.flatMap(({ row }, index) =>
    row.files.map((file, position) => ({
      id: fileIds[index]![position],
      submission_id: row.id,
      position,
      field: file.field,
      name: file.name,
      mime_type: file.mimeType,
      size: file.size,
      sha256: file.sha256,
      storage_key: file.storageKey,
      created_at: row.createdAt.toISOString(),
    })),
  );
  const deliveries = group.flatMap(({ row, deliveries: rows }) =>
    rows.map((delivery) => ({
      id: randomUUID(),
      channel: delivery.channel,
      form_id: row.formId,
      webhook_id: delivery.channel === 'webhook' ? delivery.webhookId : null,
      submission_id: row.id,
      event_type: SUBMISSION_CREATED,
      recipients: delivery.channel === 'webhook' ? null : delivery.recipients,
      created_at: row.createdAt.toISOString(),
    })),
  );
  let written: { id: string }[];
  try {
    written = await queryPrepared<{ id: string }>(db, GROUP_INSERT, [
      JSON.stringify(submissions),
      JSON.stringify(files),
      JSON.stringify(deliveries),
    ]);
  } catch (error) {
    throw db.driver.convertException(error as Error);
  }
  const writtenIds = new Set(written.map(({ id }) => id));
  return group.map(({ row }, index) => (writtenIds.has(row.id) ? { fileIds: fileIds[index]! } : null));
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
    `select (${liveSiteSql('s', '?')}) as "live" from "sites" s where s."id" = ?`,
    [site.controlCode, site.id],
  );
  if (rows[0]?.live !== true) {
    return new AppError('token_invalid', 'The site token is not valid.');
  }
  return new AppError('form_forbidden', 'This form does not accept submissions with these credentials.');
}
