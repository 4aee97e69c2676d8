import { randomUUID } from 'node:crypto';
import type { Form, Site } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { isOutage } from '@intake/shared/outage';
import { signReceipt } from '@intake/shared/receipts';
import type { Services } from '@intake/shared/services';
import { DEFAULT_CAPTCHA_RESPONSE_FIELDS } from '@intake/shared/spam';
import type { FilePipeline } from '../files/pipeline.js';
import type { ReceivedFile, TypedFile } from '../files/types.js';
import { checkCaptcha, type CaptchaStage } from '../spam/captcha-stage.js';
import type { SpamReason } from '../spam/content-rules.js';
import { spamVerdict } from '../spam/spam-verdict.js';
import { formShapeOf, type BodyKind, type FormShape } from './form-shape.js';
import type { FileRow } from './guarded-insert.js';
import type { SubmissionAnswer } from './present-submission.js';
import { sanitizeSubmittedValue } from './sanitize-pool.js';
import type { SubmissionStore, WriteOutcome } from './submission-store.js';
import { validateFileFieldName, validateSubmissionBody } from './validate-body.js';

/** What a submission is made with: the services, the file checks and where it is written. */
export interface SubmissionSteps {
  services: Services;
  pipeline: FilePipeline;
  store: SubmissionStore;
}

export interface SubmissionInput {
  /** The token's site: its control code is checked again by the write. */
  site: Site;
  form: Form;
  /**
   * The form's enabled webhooks when the caller knows them (the gateway's cache); read from the
   * database when absent.
   */
  webhookIds?: readonly string[];
  fields: unknown;
  /** How the body arrived (form bodies' text is read as the shape's types); JSON when absent. */
  bodyKind?: BodyKind;
  /** The form's compiled shape when the caller cached it; compiled from the form when absent. */
  shape?: FormShape | null;
  files: readonly ReceivedFile[];
  idempotencyKey: string | undefined;
  /** The first answer given for `idempotencyKey`, looked up by the caller (once per request). */
  replay?: SubmissionAnswer;
  /** Verifies CAPTCHA answers; forms with a provider set are refused without it. */
  captcha?: CaptchaStage;
  /** The visitor's address, from the optional X-Intake-Client-IP header. */
  clientIp?: string;
  /** Fields the form takes as its own besides its honeypots and CAPTCHA answer (never undeclared). */
  exemptFields?: readonly string[];
  /**
   * A browser post's challenge, after the CAPTCHA provider's check: takes its answer out of the
   * fields, and throws or says why the submission is spam (docs/static-sites.md).
   */
  challenge?: (
    fields: Record<string, unknown>,
  ) => Promise<{ fields: Record<string, unknown>; spamReason?: SpamReason }>;
  /** Spam decided before the checks (a browser post's reserved honeypot). */
  spamReason?: SpamReason;
  /** Told when the submission is stored as spam (metrics). */
  onSpam?: (reason: SpamReason) => void;
  /** Told of each temporary upload storage took over (moved: no longer there to remove). */
  onUploadMoved?: (path: string) => void;
}

function allowedTypesOf(form: Form): readonly string[] {
  return form.allowedMimeTypes && form.allowedMimeTypes.length > 0 ? form.allowedMimeTypes : DEFAULT_ALLOWED_MIME_TYPES;
}

/**
 * Accepts one submission, all or nothing, in four steps: check (body, CAPTCHA, sanitiser, file
 * pipeline), judge (spam and duplicates), store the files, sign its receipt and write the
 * submission with its file rows and receipt (submission-store.ts). A refused or failed request leaves no row and no file; only when the
 * database connection breaks during the write are the files left to the orphan sweep. A repeated
 * Idempotency-Key returns the first answer and stores nothing new.
 */
export async function createSubmission(
  { services, pipeline, store }: SubmissionSteps,
  input: SubmissionInput,
): Promise<SubmissionAnswer> {
  // 1. Check.
  const validated = validateSubmissionBody(input.fields);
  for (const file of input.files) {
    validateFileFieldName(file.field);
  }
  if (input.replay) {
    return input.replay;
  }
  const shaped = shapeChecked(input, validated);
  const captchaOutcome = await captchaChecked(input, shaped);
  const { fields, spamReason: challengeSpam } = input.challenge
    ? await input.challenge(captchaOutcome.fields)
    : { fields: captchaOutcome.fields, spamReason: undefined };
  const unavailableAsSpam = captchaOutcome.unavailableAsSpam;
  const sanitized = await sanitizeSubmittedValue(fields);
  const typed = await pipeline(input.files, allowedTypesOf(input.form));

  // 2. Judge. Spam is judged only once the request passed every check a good one must pass, and is
  // then stored and answered exactly like a good one: a bot learns nothing from the answer.
  const verdict = await spamVerdict(input.form, {
    fields,
    files: typed,
    captchaUnavailable: unavailableAsSpam,
    decided: challengeSpam ?? input.spamReason,
  });
  if (verdict.duplicateFilter !== null) {
    const first = await store.findDuplicate(input.form, verdict.duplicateFilter);
    if (first) {
      return first;
    }
  }

  // 3. Store the files.
  const storedKeys = await storeFiles(services, typed, store.makesFilesDurable, input.onUploadMoved);

  // 4. Sign and write. The id and time are given here, so the receipt names them before the write.
  let written: WriteOutcome;
  try {
    const data = sanitized.value as Record<string, unknown>;
    const files = fileRows(typed, storedKeys);
    const id = randomUUID();
    const createdAt = new Date();
    const receipt = await signReceipt(await services.signingKeys(), {
      submissionId: id,
      formCode: input.form.code,
      siteId: input.site.id,
      createdAt,
      data,
      files,
    });
    written = await store.write({
      id,
      createdAt,
      receipt,
      site: input.site,
      form: input.form,
      webhookIds: input.webhookIds,
      data,
      sanitizedFields: sanitized.sanitizedFields,
      idempotencyKey: input.idempotencyKey ?? null,
      spamReason: verdict.spamReason,
      duplicateFilter: verdict.duplicateFilter,
      files,
    });
  } catch (error) {
    if (isOutage(error)) {
      // The connection broke during the write: the commit may have landed with only its answer
      // lost, and removing the objects now would leave committed rows without their files. The
      // orphan sweep removes them after its grace period if no row refers to them.
      services.logger.warn({ count: storedKeys.length }, 'kept the objects of a write whose outcome is unknown');
    } else {
      await removeObjects(services, storedKeys);
    }
    throw error;
  }
  if (written.outcome === 'stored') {
    if (verdict.spamReason !== undefined) {
      input.onSpam?.(verdict.spamReason);
    }
    return written.answer;
  }
  // Answered by another submission, or refused: nothing of this request is kept.
  await removeObjects(services, storedKeys);
  if (written.outcome === 'refused') {
    throw written.refusal;
  }
  return written.answer;
}

/**
 * The checked files moved into storage, under the keys returned in their order. If one cannot be
 * stored, the ones already stored are removed.
 */
async function storeFiles(
  services: Services,
  typed: readonly TypedFile[],
  syncLater: boolean,
  onUploadMoved: ((path: string) => void) | undefined,
): Promise<string[]> {
  const storedKeys: string[] = [];
  try {
    for (const file of typed) {
      // The temporary upload is the request's to give up: renamed into local storage when it can
      // be, else copied and removed. With `syncLater`, not yet durable: the store makes a group's
      // files durable together before its statement (durable-files.ts).
      storedKeys.push(await services.storage.putFile(file.path, { move: true, syncLater }));
      onUploadMoved?.(file.path);
    }
    return storedKeys;
  } catch (error) {
    await removeObjects(services, storedKeys);
    throw error;
  }
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

/**
 * The fields as the form's declared shape takes them, or `fields_invalid`; before the CAPTCHA
 * provider is asked and before any file is checked or stored. The honeypots and the CAPTCHA answer
 * are the form's own fields, never refused or dropped as undeclared.
 */
function shapeChecked(input: SubmissionInput, fields: Record<string, unknown>): Record<string, unknown> {
  const shape = input.shape === undefined ? formShapeOf(input.form) : input.shape;
  if (shape === null) {
    return fields;
  }
  const { form } = input;
  const exempt = [...(form.honeypotFields ?? []), ...(input.exemptFields ?? [])];
  if (form.captchaProvider) {
    exempt.push(form.captchaResponseField ?? DEFAULT_CAPTCHA_RESPONSE_FIELDS[form.captchaProvider]);
  }
  return shape.check(fields, input.bodyKind ?? 'json', exempt);
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
