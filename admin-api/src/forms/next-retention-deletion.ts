import type { Em } from '@intake/shared/db';
import { SubmissionSchema } from '@intake/shared/entities';
import { retentionDeletionDate } from '@intake/shared/lifecycle';

/**
 * When a form's retention will next delete something: the date its oldest submission (spam
 * included) expires, not before now; null without a retention or submissions. Served by the
 * (form, created_at) index.
 */
export async function nextRetentionDeletion(
  em: Em,
  formId: string,
  retentionDays: number | null,
): Promise<Date | null> {
  if (retentionDays === null) {
    return null;
  }
  const oldest = await em.findOne(
    SubmissionSchema,
    { form: formId },
    { orderBy: { createdAt: 'asc', id: 'asc' }, fields: ['createdAt'] },
  );
  if (oldest === null) {
    return null;
  }
  // Already expired (the retention was just shortened): it goes with the next run, so now.
  const due = retentionDeletionDate(oldest.createdAt, retentionDays);
  return new Date(Math.max(due.getTime(), Date.now()));
}
