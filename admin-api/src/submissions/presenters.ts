import type { StoredFile, Submission } from '@intake/shared/entities';
import { describeStoredFile } from '@intake/shared/stored-file-description';
import type { DownloadLinks } from '../lib/download-link.js';
import type { SubmissionStatusEnum } from './inbox-state.type.js';
import type { StoredFileType, SubmissionType } from './submission.type.js';

export function presentStoredFile(file: StoredFile, links: DownloadLinks): StoredFileType {
  return { ...describeStoredFile(file), downloadUrl: links.urlFor(file.id) };
}

export function presentSubmission(
  submission: Submission,
  files: readonly StoredFile[],
  links: DownloadLinks,
): SubmissionType {
  return {
    id: submission.id,
    formId: submission.form.id,
    createdAt: submission.createdAt.toISOString(),
    data: submission.data,
    sanitizedFields: submission.sanitizedFields ?? [],
    files: files.map((file) => presentStoredFile(file, links)),
    spam: submission.spam ?? false,
    spamReason: submission.spamReason ?? null,
    receipt: submission.receipt ?? null,
    status: (submission.status ?? 'new') as SubmissionStatusEnum,
    assigneeId: submission.assignee?.id ?? null,
    source: { submission, files },
  };
}
