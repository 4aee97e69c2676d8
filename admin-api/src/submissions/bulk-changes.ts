// The inbox's bulk actions on a selection of one form's submissions (at most BULK_SELECTION_MAX ids,
// checked by the resolver): assign, move to or out of spam, delete. Ids of another form are left
// alone, so a selection can never reach a site the caller's permission on `formId` does not cover.
// Each answers how many of the ids were the form's. Status and read have theirs beside the single
// actions (change-submission.ts, submission-reads.ts).
import type { Em } from '@intake/shared/db';
import { deleteSubmissions } from '@intake/shared/lifecycle';
import { AdminUserSchema, FormSchema, SubmissionSchema } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import { notFound } from '../errors.js';
import { checkAssignee } from './assignee.js';
import { markNotSpam } from './mark-not-spam.js';

/** The ids among `submissionIds` that are submissions of `formId` (spam or not). */
async function ofForm(em: Em, formId: string, submissionIds: readonly string[]): Promise<string[]> {
  const rows = await em.find(
    SubmissionSchema,
    { form: formId, id: { $in: [...submissionIds] } },
    { fields: ['id'], disableIdentityMap: true },
  );
  return rows.map((row) => row.id);
}

/** Assigns the form's submissions among the ids to `assigneeId` (checkAssignee's rule), or to nobody. */
export async function assignSubmissions(
  em: Em,
  formId: string,
  submissionIds: readonly string[],
  assigneeId: string | null,
): Promise<number> {
  const form = await em.findOne(FormSchema, { id: formId }, { fields: ['site'] });
  if (form === null) {
    throw notFound('Form');
  }
  if (assigneeId !== null) {
    await checkAssignee(em, assigneeId, form.site.id, 'assigneeId');
  }
  const ids = await ofForm(em, formId, submissionIds);
  if (ids.length > 0) {
    const assignee = assigneeId === null ? null : em.getReference(AdminUserSchema, assigneeId);
    await em.nativeUpdate(SubmissionSchema, { id: { $in: ids } }, { assignee });
  }
  return ids.length;
}

/** Why a member moved a submission to spam, as `spamReason` says it (the filters' reasons beside it). */
export const MARKED_AS_SPAM = 'marked';

/**
 * Moves the form's submissions among the ids to spam (`spam: true`, reason `marked`; deliveries
 * already queued or sent are left as they are), or out of it, each as "Not spam" does it: its
 * deliveries queued then, in its own transaction.
 */
export async function markSubmissionsSpam(
  em: Em,
  formId: string,
  submissionIds: readonly string[],
  spam: boolean,
): Promise<number> {
  const ids = await ofForm(em, formId, submissionIds);
  if (spam) {
    if (ids.length > 0) {
      await em.nativeUpdate(
        SubmissionSchema,
        { id: { $in: ids }, spam: false },
        { spam: true, spamReason: MARKED_AS_SPAM },
      );
    }
  } else {
    for (const id of ids) {
      await markNotSpam(em.fork(), id);
    }
  }
  return ids.length;
}

/** Deletes the form's submissions among the ids, with their files and deliveries. */
export async function deleteFormSubmissions(
  services: Services,
  formId: string,
  submissionIds: readonly string[],
): Promise<number> {
  const ids = await ofForm(services.db.em.fork(), formId, submissionIds);
  if (ids.length === 0) {
    return 0;
  }
  const deleted = await deleteSubmissions(services, ids, 'a deleted submission');
  return deleted.submissionIds.length;
}
