// The inbox-state changes of one submission (status, assignee, a note), each one statement. A
// submission of a deleted form stays changeable, as it stays readable.
import type { Em } from '@intake/shared/db';
import {
  AdminUserSchema,
  SubmissionNoteSchema,
  SubmissionSchema,
  type SubmissionStatus,
} from '@intake/shared/entities';
import { notFound } from '../errors.js';
import { checkAssignee } from './assignee.js';
import { findSubmission } from './find-submission.js';
import type { SubmissionWithFiles } from './list-submissions.js';

async function reloaded(em: Em, submissionId: string): Promise<SubmissionWithFiles> {
  em.clear();
  const found = await findSubmission(em, submissionId);
  if (found === null) {
    throw notFound('Submission');
  }
  return found;
}

export async function setSubmissionStatus(
  em: Em,
  submissionId: string,
  status: SubmissionStatus,
): Promise<SubmissionWithFiles> {
  const changed = await em.nativeUpdate(SubmissionSchema, { id: submissionId }, { status });
  if (changed === 0) {
    throw notFound('Submission');
  }
  return reloaded(em, submissionId);
}

/** Sets the status of those of `submissionIds` that belong to `formId`; answers how many there were. */
export async function setSubmissionsStatus(
  em: Em,
  formId: string,
  submissionIds: readonly string[],
  status: SubmissionStatus,
): Promise<number> {
  // Counted, not updated rows: a row already in that status is one of the form's all the same.
  const matching = await em.count(SubmissionSchema, { form: formId, id: { $in: [...submissionIds] } });
  await em.nativeUpdate(SubmissionSchema, { form: formId, id: { $in: [...submissionIds] } }, { status });
  return matching;
}

/** Assigns it to `assigneeId` (checkAssignee's rule), or to nobody with null. */
export async function assignSubmission(
  em: Em,
  submissionId: string,
  assigneeId: string | null,
): Promise<SubmissionWithFiles> {
  const submission = await em.findOne(SubmissionSchema, { id: submissionId }, { populate: ['form'] });
  if (submission === null) {
    throw notFound('Submission');
  }
  if (assigneeId !== null) {
    await checkAssignee(em, assigneeId, submission.form.site.id, 'assigneeId');
  }
  await em.nativeUpdate(
    SubmissionSchema,
    { id: submissionId },
    { assignee: assigneeId === null ? null : em.getReference(AdminUserSchema, assigneeId) },
  );
  return reloaded(em, submissionId);
}

/** Adds a note by `authorId`; `text` is already stored text (storedNoteText). */
export async function addSubmissionNote(
  em: Em,
  submissionId: string,
  authorId: string,
  text: string,
): Promise<SubmissionWithFiles> {
  if ((await em.count(SubmissionSchema, { id: submissionId })) === 0) {
    throw notFound('Submission');
  }
  em.create(SubmissionNoteSchema, {
    submission: em.getReference(SubmissionSchema, submissionId),
    author: em.getReference(AdminUserSchema, authorId),
    text,
  });
  await em.flush();
  return reloaded(em, submissionId);
}
