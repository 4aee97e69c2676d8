import type { Em } from '@intake/shared/db';
import type { SubmissionStatusCountsType } from './inbox-state.type.js';

/** A form's inbox (spam apart) by status, and how many of those not archived the member has not read. */
export async function countSubmissionStatuses(
  em: Em,
  formId: string,
  memberId: string,
): Promise<SubmissionStatusCountsType> {
  const [row] = await em.execute<SubmissionStatusCountsType[]>(
    `select count(*) filter (where s.status = 'new')::int as "new",
            count(*) filter (where s.status = 'open')::int as "open",
            count(*) filter (where s.status = 'done')::int as "done",
            count(*) filter (where s.status = 'archived')::int as "archived",
            count(*) filter (where s.status <> 'archived' and not exists (
              select 1 from submission_reads as r where r.submission_id = s.id and r.member_id = ?))::int as "unread"
       from submissions as s where s.form_id = ? and s.spam = false`,
    [memberId, formId],
  );
  return row ?? { new: 0, open: 0, done: 0, archived: 0, unread: 0 };
}
