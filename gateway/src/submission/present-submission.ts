import type { StoredFile, Submission } from '@intake/shared/entities';
import { describeStoredFile, type StoredFileDescription } from '@intake/shared/stored-file-description';

/** The 201 body of docs/intake-api.md; built field by field, never from a whole entity. */
export interface SubmissionAnswer {
  id: string;
  createdAt: string;
  files: StoredFileDescription[];
  /** The signed receipt (docs/receipts.md); absent only for a submission stored before receipts. */
  receipt?: string;
}

export function presentSubmission(submission: Submission, files: readonly StoredFile[]): SubmissionAnswer {
  return {
    id: submission.id,
    createdAt: submission.createdAt.toISOString(),
    files: files.map(describeStoredFile),
    ...(submission.receipt ? { receipt: submission.receipt } : {}),
  };
}
