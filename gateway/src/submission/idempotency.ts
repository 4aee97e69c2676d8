import type { Em } from '@intake/shared/db';
import { StoredFileSchema, SubmissionSchema, type Form, type Submission } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { presentSubmission, type SubmissionAnswer } from './present-submission.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The Idempotency-Key header, checked: 1 to 255 visible ASCII characters, or absent. */
export function readIdempotencyKey(header: string): string | undefined {
  if (header === '') {
    return undefined;
  }
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new AppError('body_invalid', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
  }
  return header;
}

/** The first answer given for this key on this form within 24 hours, if any. */
export async function findReplay(em: Em, form: Form, key: string): Promise<SubmissionAnswer | undefined> {
  const submission = await em.findOne(SubmissionSchema, {
    form: form.id,
    idempotencyKey: key,
    createdAt: { $gt: new Date(Date.now() - REPLAY_WINDOW_MS) },
  });
  return submission ? answerOf(em, submission) : undefined;
}

/**
 * The duplicate filter: the first submission of the same content to this form within the window,
 * answered as it was (same id), as an Idempotency-Key replay is.
 */
export async function findDuplicate(
  em: Em,
  form: Form,
  contentHash: string,
  windowSeconds: number,
): Promise<SubmissionAnswer | undefined> {
  const submission = await em.findOne(
    SubmissionSchema,
    { form: form.id, contentHash, createdAt: { $gt: new Date(Date.now() - windowSeconds * 1000) } },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return submission ? answerOf(em, submission) : undefined;
}

async function answerOf(em: Em, submission: Submission): Promise<SubmissionAnswer> {
  const files = await em.find(StoredFileSchema, { submission: submission.id }, { orderBy: { position: 'asc' } });
  return presentSubmission(submission, files);
}
