import {
  AppError,
  FormSchema,
  type Em,
  StoredFileSchema,
  SubmissionSchema,
  type Form,
  type Services,
  type StoredFile,
} from '@intake/shared';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared';
import type { FilePipeline } from '../files/pipeline.js';
import type { ReceivedFile, TypedFile } from '../files/types.js';
import { findReplay } from './idempotency.js';
import { presentSubmission, type SubmissionAnswer } from './present-submission.js';
import { sanitizeValue } from './sanitize.js';
import { validateFieldName, validateSubmissionBody } from './validate-body.js';

export interface SubmissionInput {
  /** The request's EntityManager fork. */
  em: Em;
  form: Form;
  fields: unknown;
  files: readonly ReceivedFile[];
  idempotencyKey: string | undefined;
}

function allowedTypesOf(form: Form): readonly string[] {
  return form.allowedMimeTypes && form.allowedMimeTypes.length > 0 ? form.allowedMimeTypes : DEFAULT_ALLOWED_MIME_TYPES;
}

/**
 * Accepts one submission, all or nothing: validate → sanitise → file pipeline (type, inspection,
 * scan) → store the files → commit the submission and its file rows in one transaction. Any
 * failure removes the objects already stored, so a refused request leaves no row and no file.
 * A repeated Idempotency-Key returns the first answer and stores nothing new.
 */
export async function createSubmission(
  services: Services,
  pipeline: FilePipeline,
  input: SubmissionInput,
): Promise<SubmissionAnswer> {
  const fields = validateSubmissionBody(input.fields);
  for (const file of input.files) {
    validateFieldName(file.field);
  }
  if (input.idempotencyKey) {
    const replay = await findReplay(input.em, input.form, input.idempotencyKey);
    if (replay) {
      return replay;
    }
  }
  const data = sanitizeValue(fields) as Record<string, unknown>;
  const typed = await pipeline(input.files, allowedTypesOf(input.form));

  const storedKeys: string[] = [];
  try {
    for (const file of typed) {
      storedKeys.push(await services.storage.putFile(file.path));
    }
    return await persist(input, data, typed, storedKeys);
  } catch (error) {
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

async function persist(
  input: SubmissionInput,
  data: Record<string, unknown>,
  typed: readonly TypedFile[],
  storedKeys: readonly string[],
): Promise<SubmissionAnswer> {
  const { em } = input;
  const submission = em.create(SubmissionSchema, {
    form: em.getReference(FormSchema, input.form.id),
    data,
    idempotencyKey: input.idempotencyKey ?? null,
  });
  const files: StoredFile[] = typed.map((file, position) =>
    em.create(StoredFileSchema, {
      submission,
      position,
      field: file.field,
      name: file.name,
      mimeType: file.mimeType,
      size: file.size,
      sha256: file.sha256,
      storageKey: storedKeys[position] as string,
    }),
  );
  // flush() runs every insert in one transaction: the submission and its files commit together.
  await em.flush();
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

async function removeObjects(services: Services, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => services.storage.delete(key)));
  if (results.some((result) => result.status === 'rejected')) {
    // The request still fails cleanly (no row points at these objects); the leftovers are logged by count.
    services.logger.warn({ count: keys.length }, 'could not remove every stored object of a failed submission');
  }
}
