// Read and unread, per member: a row in submission_reads for each submission a member has read.
import type { Em } from '@intake/shared/db';

/** Which of `submissionIds` the member has read. */
export async function readSubmissionIds(
  em: Em,
  memberId: string,
  submissionIds: readonly string[],
): Promise<Set<string>> {
  if (submissionIds.length === 0) {
    return new Set();
  }
  const rows = await em.execute<{ submission_id: string }[]>(
    `select "submission_id" from "submission_reads" where "member_id" = ? and "submission_id" in (${submissionIds.map(() => '?').join(', ')})`,
    [memberId, ...submissionIds],
  );
  return new Set(rows.map((row) => row.submission_id));
}

/**
 * Marks submissions of one form read (or unread) for one member; ids of another form, or of none,
 * are left alone. Answers how many of the ids are submissions of that form.
 */
export async function markSubmissionsRead(
  em: Em,
  memberId: string,
  formId: string,
  submissionIds: readonly string[],
  read: boolean,
): Promise<number> {
  if (submissionIds.length === 0) {
    return 0;
  }
  const ids = `(${submissionIds.map(() => '?').join(', ')})`;
  const ofForm = `select "id" from "submissions" where "form_id" = ? and "id" in ${ids}`;
  const matching = await em.execute<{ id: string }[]>(ofForm, [formId, ...submissionIds]);
  if (read) {
    await em.execute(
      `insert into "submission_reads" ("submission_id", "member_id", "read_at") ${ofForm.replace('"id"', '"id", ?, now()')} ` +
        'on conflict ("submission_id", "member_id") do nothing',
      [memberId, formId, ...submissionIds],
    );
  } else {
    await em.execute(`delete from "submission_reads" where "member_id" = ? and "submission_id" in (${ofForm})`, [
      memberId,
      formId,
      ...submissionIds,
    ]);
  }
  return matching.length;
}
