import type { StoredFile, Submission } from '@intake/shared';

/** The 201 body of docs/intake-api.md; built field by field, never from a whole entity. */
export interface SubmissionAnswer {
  id: string;
  createdAt: string;
  files: { id: string; field: string; name: string; mimeType: string; size: number; sha256: string }[];
}

export function presentSubmission(submission: Submission, files: readonly StoredFile[]): SubmissionAnswer {
  return {
    id: submission.id,
    createdAt: submission.createdAt.toISOString(),
    files: files.map((file) => ({
      id: file.id,
      field: file.field,
      name: file.name,
      mimeType: file.mimeType,
      size: file.size,
      sha256: file.sha256,
    })),
  };
}
