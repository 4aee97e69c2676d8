import type { Em } from '@intake/shared/db';
import { SubmissionSchema } from '@intake/shared/entities';
import { filesBySubmission } from './files-by-submission.js';
import type { SubmissionWithFiles } from './list-submissions.js';

/** A submission with its files, of a deleted form too; null when there is none. */
export async function findSubmission(em: Em, submissionId: string): Promise<SubmissionWithFiles | null> {
  const submission = await em.findOne(SubmissionSchema, { id: submissionId });
  if (submission === null) {
    return null;
  }
  const files = await filesBySubmission(em, [submission.id]);
  return { submission, files: files.get(submission.id) ?? [] };
}
