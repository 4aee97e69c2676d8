import { createHash } from 'node:crypto';
import type { Em } from '@intake/shared/db';
import { enabledWebhookIds, enqueueSubmissionDeliveries } from '@intake/shared/delivery';
import {
  FormSchema,
  StoredFileSchema,
  SubmissionSchema,
  type Form,
  type Site,
  type StoredFile,
} from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import type { Services } from '@intake/shared/services';
import { isOutage } from '@intake/shared/outage';
import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { FilePipeline } from '../files/pipeline.js';
import type { ReceivedFile, TypedFile } from '../files/types.js';
import { checkCaptcha, type CaptchaStage } from '../spam/captcha-stage.js';
import { contentHash, contentSpamReason, type SpamReason } from '../spam/content-rules.js';
import { findDuplicate, findReplay } from './idempotency.js';
import { oneAtATime } from './one-at-a-time.js';
import { presentSubmission, type SubmissionAnswer } from './present-submission.js';
import { sanitizeSubmittedValue } from './sanitize-pool.js';
import {
  insertIfAccepting,
  insertSingleStatementIfAccepting,
  isStillAccepting,
  refusalOf,
  type FileRow,
} from './still-accepting.js';
import { validateFileFieldName, validateSubmissionBody } from './validate-body.js';

export interface SubmissionInput {
  /** The request's EntityManager fork. */
  em: Em;
  /** The token's site: its control code is checked again by the write. */
  site: Site;
  form: Form;
  /**
   * The form's enabled webhooks when the caller knows them (the gateway's cache); read from the
   * database when absent.
   */
  webhookIds?: readonly string[];
  fields: unknown;
  files: readonly ReceivedFile[];
  idempotencyKey: string | undefined;
  /** The first answer given for `idempotencyKey`, looked up by the caller (once per request). */
  replay?: SubmissionAnswer;
  /** Verifies CAPTCHA answers; forms with a provider set are refused without it. */
  captcha?: CaptchaStage;
  /** The visitor's address, from the optional X-Intake-Client-IP header. */
  clientIp?: string;
  /** Told when the submission is stored as spam (metrics). */
  onSpam?: (reason: SpamReason) => void;
}

/** How a submission is stored: spam or not, and what the duplicate filter looks up. */
interface Verdict {
  spamReason: SpamReason | undefined;
  contentHash: string | null;
  duplicateWindowSeconds: number | null;
}

/** What a write stores: the sanitised data, the checked files' rows and the verdict. */
interface PendingWrite {
  data: Record<string, unknown>;
  /** Where the sanitiser removed markup (JSON paths). */
  sanitizedFields: string[];
  files: FileRow[];
  verdict: Verdict;
}

/** The answer of a write, and whether it is the first submission of the same content instead. */
interface Persisted {
  answer: SubmissionAnswer;
  duplicate: boolean;
}

function allowedTypesOf(form: Form): readonly string[] {
  return form.allowedMimeTypes && form.allowedMimeTypes.length > 0 ? form.allowedMimeTypes : DEFAULT_ALLOWED_MIME_TYPES;
}

/**
 * Accepts one submission, all or nothing: validate → sanitise → file pipeline (type, inspection,
 * scan) → store the files → commit the submission and its file rows in one transaction. Any
 * failure removes the objects already stored, so a refused request leaves no row and no file; only
 * when the database connection breaks during the write are they left to the orphan sweep.
 * A repeated Idempotency-Key returns the first answer and stores nothing new.
 */
export async function createSubmission(
  services: Services,
  pipeline: FilePipeline,
  input: SubmissionInput,
): Promise<SubmissionAnswer> {
  const validated = validateSubmissionBody(input.fields);
  for (const file of input.files) {
    validateFileFieldName(file.field);
  }
  if (input.replay) {
    return input.replay;
  }
  const { fields, unavailableAsSpam } = await captchaChecked(input, validated);
  const sanitized = await sanitizeSubmittedValue(fields);
  const data = sanitized.value as Record<string, unknown>;
  const typed = await pipeline(input.files, allowedTypesOf(input.form));

  // Spam is judged only once the request passed every check a good one must pass, and is then
  // stored and answered exactly like a good one: a bot learns nothing from the answer.
  const spamReason: SpamReason | undefined = unavailableAsSpam
    ? 'captcha_unavailable'
    : await contentSpamReason(
        {
          honeypotFields: input.form.honeypotFields ?? null,
          maxLinks: input.form.maxLinks ?? null,
          blockedWords: input.form.blockedWords ?? null,
        },
        fields,
        typed.map((file) => file.field),
      );
  const windowSeconds = input.form.duplicateWindowSeconds ?? null;
  const hash = windowSeconds === null ? null : contentHash({ fields, files: typed, spamReason });
  if (hash !== null && windowSeconds !== null) {
    const first = await findDuplicate(input.em, input.form, hash, windowSeconds);
    if (first) {
      return first;
    }
  }
  const verdict: Verdict = { spamReason, contentHash: hash, duplicateWindowSeconds: windowSeconds };

  const storedKeys: string[] = [];
  let writing = false;
  try {
    for (const file of typed) {
      // The temporary upload is the request's to give up: moved into local storage when it can be.
      storedKeys.push(await services.storage.putFile(file.path, { move: true }));
    }
    writing = true;
    const write: PendingWrite = {
      data,
      sanitizedFields: sanitized.sanitizedFields,
      files: fileRows(typed, storedKeys),
      verdict,
    };
    const { answer, duplicate } = isSingleStatement(input, verdict)
      ? { answer: await writeSingleStatement(services, input, write), duplicate: false }
      : await persistWithKnownWebhooks(input, write);
    if (duplicate) {
      // The same content committed while this request was on its way: nothing of it is kept.
      await removeObjects(services, storedKeys);
    } else if (spamReason !== undefined) {
      input.onSpam?.(spamReason);
    }
    return answer;
  } catch (error) {
    if (writing && isOutage(error)) {
      // The connection broke during the write: the commit may have landed with only its answer
      // lost, and removing the objects now would leave committed rows without their files. The
      // orphan sweep removes them after its grace period if no row refers to them.
      services.logger.warn({ count: storedKeys.length }, 'kept the objects of a write whose outcome is unknown');
      throw error;
    }
    await removeObjects(services, storedKeys);
    if (error instanceof UniqueConstraintViolationException && input.idempotencyKey) {
      // A failed flush leaves the unit of work unusable: go on with a clean fork.
      const em = input.em.fork();
      return replayAfterConflict(em, input.form, input.idempotencyKey, () =>
        createSubmission(services, pipeline, { ...input, em: em.fork() }),
      );
    }
    throw error;
  }
}

/**
 * Whether the submission's write is known to be one statement before any entity is made: no
 * duplicate filter (its lock needs a transaction), and, from the gateway's cache, no enabled webhook
 * and no notification e-mail (so no delivery, for spam or not: spam takes the same path a good one
 * would). Its files ride in the same statement. Anything else goes through writeRows.
 */
function isSingleStatement(input: SubmissionInput, verdict: Verdict): boolean {
  return (
    verdict.contentHash === null &&
    input.webhookIds !== undefined &&
    input.webhookIds.length === 0 &&
    (input.form.notifyEmails ?? []).length === 0
  );
}

/** The row of each checked file, stored under the key at its position. */
function fileRows(typed: readonly TypedFile[], storedKeys: readonly string[]): FileRow[] {
  return typed.map((file, position) => ({
    field: file.field,
    name: file.name,
    mimeType: file.mimeType,
    size: file.size,
    sha256: file.sha256,
    storageKey: storedKeys[position] as string,
  }));
}

/** writeRows without entities: the submission and its file rows in one guarded statement, the same refusal. */
async function writeSingleStatement(
  services: Services,
  input: SubmissionInput,
  { data, sanitizedFields, files, verdict }: PendingWrite,
): Promise<SubmissionAnswer> {
  const inserted = await insertSingleStatementIfAccepting(
    services.db,
    {
      formId: input.form.id,
      data,
      sanitizedFields,
      idempotencyKey: input.idempotencyKey ?? null,
      spamReason: verdict.spamReason ?? null,
      files,
    },
    input.site,
  );
  if (inserted === null) {
    throw await refusalOf(input.em, input.form.id, input.site);
  }
  return {
    id: inserted.id,
    createdAt: inserted.createdAt.toISOString(),
    files: files.map(({ storageKey: _key, ...file }, position) => ({ id: inserted.fileIds[position]!, ...file })),
  };
}

/**
 * A webhook the cache still lists may have been deleted a moment ago, its notification not yet
 * here: its delivery row then breaks the webhook's foreign key and the transaction rolls back.
 * Once, with a clean fork, the webhooks are read afresh instead.
 */
async function persistWithKnownWebhooks(input: SubmissionInput, write: PendingWrite): Promise<Persisted> {
  try {
    return await persist(input, write);
  } catch (error) {
    if (input.webhookIds && input.webhookIds.length > 0 && error instanceof ForeignKeyConstraintViolationException) {
      return persist({ ...input, em: input.em.fork(), webhookIds: undefined }, write);
    }
    throw error;
  }
}

async function persist(input: SubmissionInput, write: PendingWrite): Promise<Persisted> {
  const { contentHash: hash, duplicateWindowSeconds: windowSeconds } = write.verdict;
  if (hash === null || windowSeconds === null) {
    return { answer: await writeRows(input, write, false), duplicate: false };
  }
  // Two requests with the same content at the same moment (a double click forwarded twice) both
  // pass the early look-up. A transaction-scoped advisory lock on the form and content makes the
  // second wait for the first to commit, look again, and answer with the first; within one process
  // they also take turns (see one-at-a-time.ts for why the lock alone is not enough on PGlite).
  const lockKey = contentLockKey(input.form.id, hash);
  return oneAtATime(lockKey, () =>
    input.em.transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(?::bigint)', [lockKey], 'all');
      const first = await findDuplicate(tx, input.form, hash, windowSeconds);
      if (first) {
        return { answer: first, duplicate: true };
      }
      return {
        answer: await writeRows({ ...input, em: tx }, write, true),
        duplicate: false,
      };
    }),
  );
}

/** A 63-bit advisory lock key for this content on this form. */
function contentLockKey(formId: string, hash: string): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(`${formId}:${hash}`).digest('hex').slice(0, 16)}`),
  ).toString();
}

/**
 * Writes the submission, its file rows and its deliveries. `inTransaction`: the caller's
 * transaction commits them (the one-statement path would run outside it).
 */
async function writeRows(
  input: SubmissionInput,
  { data, sanitizedFields, files: rows, verdict }: PendingWrite,
  inTransaction: boolean,
): Promise<SubmissionAnswer> {
  const { em } = input;
  // Not persisted yet: whether it needs a transaction is known only once its rows are made.
  const submission = em.create(
    SubmissionSchema,
    {
      form: em.getReference(FormSchema, input.form.id),
      data,
      sanitizedFields,
      idempotencyKey: input.idempotencyKey ?? null,
      spam: verdict.spamReason !== undefined,
      spamReason: verdict.spamReason ?? null,
      contentHash: verdict.contentHash,
    },
    { persist: false },
  );
  const files: StoredFile[] = rows.map((row, position) =>
    em.create(StoredFileSchema, { submission, position, ...row }),
  );
  // The outbox: one delivery per enabled webhook and one for the notification e-mails. Spam gets
  // none until an administrator marks it "Not spam" (the admin API queues them then), but takes
  // the same write path as a good submission would, so its answer does not come sooner.
  let goodWouldUseTransaction = false;
  if (verdict.spamReason === undefined) {
    await enqueueSubmissionDeliveries(em, input.form, submission, input.webhookIds);
  } else {
    const webhooks = input.webhookIds ?? (await enabledWebhookIds(em, input.form.id));
    goodWouldUseTransaction = webhooks.length > 0 || (input.form.notifyEmails ?? []).length > 0;
  }
  if (em.getUnitOfWork().getPersistStack().size === 0 && !goodWouldUseTransaction && !inTransaction) {
    // The submission is the only row: one INSERT is atomic on its own, and BEGIN and COMMIT around
    // it would cost two more round trips on the busiest path (README, Performance).
    if (!(await insertIfAccepting(em, submission, input.form.id, input.site))) {
      throw await refusalOf(em, input.form.id, input.site);
    }
  } else {
    if (!(await isStillAccepting(em, input.form.id, input.site))) {
      throw await refusalOf(em, input.form.id, input.site);
    }
    // flush() runs every insert in one transaction (or in the caller's): the submission, its files
    // and its deliveries commit together.
    em.persist(submission);
    await em.flush();
  }
  return presentSubmission(submission, files);
}

/**
 * A concurrent request with the same key committed first: answer with its submission. If the key
 * belongs to a submission older than the 24 h window, free it and try once more.
 */
async function replayAfterConflict(
  em: Em,
  form: Form,
  key: string,
  retry: () => Promise<SubmissionAnswer>,
): Promise<SubmissionAnswer> {
  const replay = await findReplay(em, form, key);
  if (replay) {
    return replay;
  }
  const freed = await em.nativeUpdate(
    SubmissionSchema,
    { form: form.id, idempotencyKey: key },
    { idempotencyKey: null },
  );
  if (freed === 0) {
    throw new AppError('service_unavailable', 'The submission could not be stored. Retry later.', { retryAfter: 1 });
  }
  return retry();
}

/** The CAPTCHA check when the form has a provider: the fields without the answer. */
async function captchaChecked(
  input: SubmissionInput,
  fields: Record<string, unknown>,
): Promise<{ fields: Record<string, unknown>; unavailableAsSpam: boolean }> {
  if ((input.form.captchaProvider ?? null) === null) {
    return { fields, unavailableAsSpam: false };
  }
  if (!input.captcha) {
    // A caller that cannot verify must not let a protected form's submissions through.
    throw new AppError('captcha_unavailable', 'The CAPTCHA answer could not be verified. Retry later.', {
      retryAfter: 5,
    });
  }
  return checkCaptcha(input.captcha, input.form, fields, input.clientIp);
}

async function removeObjects(services: Services, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => services.storage.delete(key)));
  if (results.some((result) => result.status === 'rejected')) {
    // The request still fails cleanly (no row points at these objects); the leftovers are logged by count.
    services.logger.warn({ count: keys.length }, 'could not remove every stored object of a failed submission');
  }
}
