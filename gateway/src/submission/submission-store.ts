// Where a submission row is written. One call, `write`, takes a submission that is checked, judged
// and whose files are stored, and answers with the outcome; the SQL, the choice of path and the
// retries stay in here (the statements themselves in guarded-insert.ts). Without a duplicate filter,
// cap or schedule, group commit (group-committer.ts): the submission, its file rows and its deliveries
// in one guarded statement shared with concurrent requests; otherwise, or for a row its group did not
// write, one transaction (with the cap claimed in it, capacity.ts). The paths, the retries and why:
// docs/operations.md ("The write path"), docs/performance.md ("Group commit"). Local files arrive
// not yet durable: each path makes them so before its statement (durable-files.ts).
import { createHash } from 'node:crypto';
import type { Database, Em } from '@intake/shared/db';
import { enabledWebhookIds, enqueueSubmissionDeliveries, submissionDeliveries } from '@intake/shared/delivery';
import { FormSchema, StoredFileSchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { isOutage } from '@intake/shared/outage';
import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SpamReason } from '../spam/content-rules.js';
import type { DuplicateFilter } from '../spam/spam-verdict.js';
import { claimCapacity } from './capacity.js';
import { makeFilesDurable, type DurableFiles } from './durable-files.js';
import { hasLimits } from './form-limits.js';
import { GroupCommitter, type GroupCounts, type GroupSettings } from './group-committer.js';
import {
  insertGroupIfAccepting,
  insertSingleStatementIfAccepting,
  isStillAccepting,
  refusalOf,
  type FileRow,
  type GroupedSubmission,
  type InsertedSubmission,
  type SingleStatementSubmission,
} from './guarded-insert.js';
import { findDuplicate, findReplay } from './idempotency.js';
import { oneAtATime } from './one-at-a-time.js';
import { presentSubmission, type SubmissionAnswer } from './present-submission.js';

/**
 * A submission ready to be written: checked, judged, its files stored already (put with `syncLater`:
 * the store makes them durable before its statement), its receipt signed.
 */
export interface SubmissionRecord {
  /** The submission's id and time, given before the write: the receipt names them. */
  id: string;
  createdAt: Date;
  /** The signed receipt over this record (docs/receipts.md), stored with it. */
  receipt: string;
  /** The token's site: its control code is checked again by the write. */
  site: Site;
  form: Form;
  /** The form's enabled webhooks as the gateway's cache knows them; read from the database when absent. */
  webhookIds?: readonly string[];
  /** The sanitised values. */
  data: Record<string, unknown>;
  /** Where the sanitiser removed markup (JSON paths). */
  sanitizedFields: readonly string[];
  idempotencyKey: string | null;
  /** Undefined: not spam. Spam gets no delivery. */
  spamReason: SpamReason | undefined;
  duplicateFilter: DuplicateFilter | null;
  files: readonly FileRow[];
}

/** What became of a write. Only `stored` keeps the files of this request; the others answer without them. */
export type WriteOutcome =
  /** Committed: this submission's answer. */
  | { outcome: 'stored'; answer: SubmissionAnswer }
  /** The same content committed first, within the duplicate window: the first one's answer. */
  | { outcome: 'duplicate'; answer: SubmissionAnswer }
  /** The Idempotency-Key is held by a submission within the replay window: that one's answer. */
  | { outcome: 'replay'; answer: SubmissionAnswer }
  /** The form or site no longer accepts it (disabled, deleted, control code rotated): the error to answer. */
  | { outcome: 'refused'; refusal: AppError };

export interface SubmissionStore {
  /**
   * Writes the submission, its file rows and its deliveries, all or nothing. Throws only for a
   * failure (an outage among them: the outcome is then unknown).
   */
  write(record: SubmissionRecord): Promise<WriteOutcome>;
  /** The first submission of the same content within the window, looked up before any file is stored. */
  findDuplicate(form: Form, filter: DuplicateFilter): Promise<SubmissionAnswer | undefined>;
  /** How the one-statement writes were grouped so far (tests, the bench). */
  readonly groupCounts: GroupCounts;
  /** True when the store makes the files durable before their rows: put them with `syncLater`. */
  readonly makesFilesDurable: boolean;
}

/** A write frees an expired Idempotency-Key and tries again at most this often. */
const WRITES_PER_KEY_CLASH = 3;

/** Writes grouped when the gateway's configuration does not say otherwise (SUBMISSION_GROUP_*). */
const DEFAULT_GROUPING: GroupSettings = { maxRows: 64, windowMs: 0 };

/** A submission for the group commit; `wouldDeliver` also for spam, which gets no delivery rows. */
interface GroupEntry extends GroupedSubmission {
  wouldDeliver: boolean;
}

export interface StoreOptions {
  /** Told the size of each group as it is sent (the gateway's /metrics). */
  onGroup?: (rows: number) => void;
  /** Where the submissions' files were put, to make them durable before their rows; none: durable already. */
  files?: DurableFiles;
}

/** The group commit's answer for one submission. */
type WriteGrouped = (entry: GroupEntry) => Promise<Settled>;

export function submissionStore(
  db: Database,
  grouping: GroupSettings = DEFAULT_GROUPING,
  { onGroup, files }: StoreOptions = {},
): SubmissionStore {
  const committer = new GroupCommitter(
    (group: readonly GroupEntry[]) => writeGroup(db, files, group),
    grouping,
    onGroup,
  );
  return {
    write: (record) => writeSubmission(db, files, (entry) => committer.write(entry), record),
    findDuplicate: (form, filter) => findDuplicate(db.em.fork(), form, filter.contentHash, filter.windowSeconds),
    groupCounts: committer.counts,
    makesFilesDurable: files?.makeDurable !== undefined,
  };
}

const WRITE_ALONE = 'write alone';
type Settled = { inserted: InsertedSubmission | null } | { filesFailed: AppError } | typeof WRITE_ALONE;

/**
 * One group's write. A lone submission without deliveries is today's single statement, its errors
 * its own. Otherwise one statement for the group; the rows it did not write, or all of them when
 * it failed for any reason but an outage (a row the database rejects, a webhook deleted meanwhile:
 * one row must not fail its neighbours), are written alone after. An outage fails the whole group:
 * nothing of it was written (or, the connection lost at the commit, the outcome is unknown, as for
 * a single row). First, the files of the group are made durable together; a submission whose files
 * could not be is answered with that failure and left out of the statement.
 */
async function writeGroup(
  db: Database,
  files: DurableFiles | undefined,
  whole: readonly GroupEntry[],
): Promise<Settled[]> {
  const failures = await makeFilesDurable(
    files,
    whole.map((entry) => entry.row.files),
  );
  const group = whole.filter((_entry, position) => failures[position] === undefined);
  const written = await writeDurableGroup(db, group);
  let next = 0;
  return failures.map((failure) => (failure === undefined ? written[next++]! : { filesFailed: failure }));
}

async function writeDurableGroup(db: Database, group: readonly GroupEntry[]): Promise<Settled[]> {
  if (group.length === 0) {
    return [];
  }
  if (group.length === 1 && !group[0]!.wouldDeliver) {
    const { row, site } = group[0]!;
    return [{ inserted: await insertSingleStatementIfAccepting(db, row, site) }];
  }
  try {
    const inserted = await insertGroupIfAccepting(db, group);
    return inserted.map((written) => (written === null ? WRITE_ALONE : { inserted: written }));
  } catch (error) {
    if (isOutage(error)) {
      throw error;
    }
    return group.map(() => WRITE_ALONE);
  }
}

async function writeSubmission(
  db: Database,
  files: DurableFiles | undefined,
  writeGrouped: WriteGrouped,
  record: SubmissionRecord,
): Promise<WriteOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      // A second attempt makes the files durable again: an fsync of a clean file is cheap, and rare.
      return await writeWithCurrentWebhooks(db, files, writeGrouped, record);
    } catch (error) {
      const key = record.idempotencyKey;
      if (!(error instanceof UniqueConstraintViolationException) || key === null) {
        throw error;
      }
      // A concurrent request with the same key committed first: answer with its submission. A
      // failed flush leaves its unit of work unusable, hence a fresh fork.
      const em = db.em.fork();
      const replay = await findReplay(em, record.form, key);
      if (replay) {
        return { outcome: 'replay', answer: replay };
      }
      // The key belongs to a submission older than the replay window: free it and write again.
      if (attempt === WRITES_PER_KEY_CLASH || (await freeIdempotencyKey(em, record.form, key)) === 0) {
        throw new AppError('service_unavailable', 'The submission could not be stored. Retry later.', {
          retryAfter: 1,
        });
      }
    }
  }
}

/**
 * A webhook the cache still lists may have been deleted a moment ago, its notification not yet
 * here: its delivery row then breaks the webhook's foreign key and the transaction rolls back.
 * Once, the webhooks are read afresh instead.
 */
async function writeWithCurrentWebhooks(
  db: Database,
  files: DurableFiles | undefined,
  writeGrouped: WriteGrouped,
  record: SubmissionRecord,
): Promise<WriteOutcome> {
  try {
    return await writeOnce(db, files, writeGrouped, record);
  } catch (error) {
    if (record.webhookIds && record.webhookIds.length > 0 && error instanceof ForeignKeyConstraintViolationException) {
      return writeOnce(db, files, writeGrouped, { ...record, webhookIds: undefined });
    }
    throw error;
  }
}

/**
 * The choice of path. Spam gets no delivery but takes the path a good submission would (the same
 * group statement, or one transaction when the good one would be written alone with deliveries), so
 * its answer does not come sooner: a bot learns nothing from the timing.
 */
async function writeOnce(
  db: Database,
  files: DurableFiles | undefined,
  writeGrouped: WriteGrouped,
  record: SubmissionRecord,
): Promise<WriteOutcome> {
  // Made on first use: the one-statement path needs no EntityManager (a fork costs CPU on the
  // busiest path).
  let em: Em | undefined;
  const fork = () => (em ??= db.em.fork());
  const webhookIds = record.webhookIds ?? (await enabledWebhookIds(fork(), record.form.id));
  // A cap is claimed in the submission's transaction, so a capped or scheduled form is never grouped.
  if (record.duplicateFilter !== null || hasLimits(record.form)) {
    const [failure] = await makeFilesDurable(files, [record.files]);
    if (failure !== undefined) {
      throw failure;
    }
    return writeInTransaction(fork(), record, webhookIds);
  }
  const { form, site } = record;
  // The path follows what a good submission would get, spam's too (see above).
  const wouldDeliver = submissionDeliveries(form, webhookIds, false, record.data).length > 0;
  const row: SingleStatementSubmission = {
    id: record.id,
    createdAt: record.createdAt,
    formId: form.id,
    data: record.data,
    sanitizedFields: record.sanitizedFields,
    idempotencyKey: record.idempotencyKey,
    spamReason: record.spamReason ?? null,
    receipt: record.receipt,
    files: record.files,
  };
  const deliveries = submissionDeliveries(form, webhookIds, record.spamReason !== undefined, record.data);
  const settled = await writeGrouped({ row, site, deliveries, wouldDeliver });
  if (settled !== WRITE_ALONE) {
    if ('filesFailed' in settled) {
      throw settled.filesFailed;
    }
    return outcomeOf(record, settled.inserted, fork);
  }
  // Not written by its group (its files made durable there): alone, the path that says why (a refusal, a key clash to answer, a
  // webhook deleted meanwhile).
  if (wouldDeliver) {
    return writeInTransaction(fork(), record, webhookIds);
  }
  return outcomeOf(record, await insertSingleStatementIfAccepting(db, row, site), fork);
}

/** The answer of a write without entities: its rows as written, or why the form or site refused it. */
async function outcomeOf(
  record: SubmissionRecord,
  inserted: InsertedSubmission | null,
  fork: () => Em,
): Promise<WriteOutcome> {
  if (inserted === null) {
    return { outcome: 'refused', refusal: await refusalOf(fork(), record.form.id, record.site) };
  }
  return {
    outcome: 'stored',
    answer: {
      id: record.id,
      createdAt: record.createdAt.toISOString(),
      files: record.files.map(({ storageKey: _key, ...file }, position) => ({
        id: inserted.fileIds[position]!,
        ...file,
      })),
      receipt: record.receipt,
    },
  };
}

/**
 * The acceptance check, the submission, its file rows and its deliveries in one transaction. With a
 * duplicate filter: two requests with the same content at the same moment (a double click
 * forwarded twice) both pass the early look-up; a transaction-scoped advisory lock on the form and
 * content makes the second wait for the first to commit, look again, and answer with the first.
 * Within one process they also take turns (see one-at-a-time.ts for why the lock alone is not
 * enough on PGlite).
 */
async function writeInTransaction(
  em: Em,
  record: SubmissionRecord,
  webhookIds: readonly string[],
): Promise<WriteOutcome> {
  const filter = record.duplicateFilter;
  const capped = hasLimits(record.form);
  // A capped form's writes take turns in this process (PGlite keeps no two transactions apart); that
  // covers the content lock's turns too. Across processes, the count's row lock keeps the cap.
  const lockKey = filter === null ? null : contentLockKey(record.form.id, filter);
  const turnKey = capped ? `capacity:${record.form.id}` : lockKey;
  const write = () =>
    em.transactional(async (tx): Promise<WriteOutcome> => {
      if (filter !== null) {
        await tx.execute('select pg_advisory_xact_lock(?::bigint)', [lockKey], 'all');
        const first = await findDuplicate(tx, record.form, filter.contentHash, filter.windowSeconds);
        if (first) {
          return { outcome: 'duplicate', answer: first };
        }
      }
      if (!(await isStillAccepting(tx, record.form.id, record.site))) {
        return { outcome: 'refused', refusal: await refusalOf(tx, record.form.id, record.site) };
      }
      const closed = capped ? await claimCapacity(tx, capacityClaim(record)) : null;
      if (closed !== null) {
        // Rolled back with the transaction: nothing was counted.
        throw new RefusedInTransaction(closed);
      }
      const submission = tx.create(SubmissionSchema, {
        id: record.id,
        createdAt: record.createdAt,
        receipt: record.receipt,
        form: tx.getReference(FormSchema, record.form.id),
        data: record.data,
        sanitizedFields: [...record.sanitizedFields],
        idempotencyKey: record.idempotencyKey,
        spam: record.spamReason !== undefined,
        spamReason: record.spamReason ?? null,
        contentHash: filter?.contentHash ?? null,
      });
      const files = record.files.map((row, position) => tx.create(StoredFileSchema, { submission, position, ...row }));
      // The outbox, as submissionDeliveries says (spam gets none), in the same flush.
      await enqueueSubmissionDeliveries(tx, record.form, submission, webhookIds);
      await tx.flush();
      return { outcome: 'stored', answer: presentSubmission(submission, files) };
    });
  const written = () =>
    write().catch((error: unknown) => {
      if (error instanceof RefusedInTransaction) {
        return { outcome: 'refused', refusal: error.refusal } as const;
      }
      throw error;
    });
  return turnKey === null ? written() : oneAtATime(turnKey, written);
}

/** Thrown to roll back a transaction whose cap refused the submission after raising another count. */
class RefusedInTransaction extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

function capacityClaim(record: SubmissionRecord) {
  return {
    formId: record.form.id,
    data: record.data,
    createdAt: record.createdAt,
    spam: record.spamReason !== undefined,
  };
}

/** A 63-bit advisory lock key for this content on this form. */
function contentLockKey(formId: string, filter: DuplicateFilter): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(`${formId}:${filter.contentHash}`).digest('hex').slice(0, 16)}`),
  ).toString();
}

/** Frees a key whose submission is older than the replay window; the number of rows freed. */
function freeIdempotencyKey(em: Em, form: Form, key: string): Promise<number> {
  return em.nativeUpdate(SubmissionSchema, { form: form.id, idempotencyKey: key }, { idempotencyKey: null });
}
