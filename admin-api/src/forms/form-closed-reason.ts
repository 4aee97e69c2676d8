// Whether a form takes submissions now, as the gateway would decide: before its opening, after its
// closing, or at its cap (read from the count the gateway keeps: docs/submissions.md#caps-and-a-schedule).
import type { Em } from '@intake/shared/db';
import { FormClosedReasonEnum, type FormType } from './form.type.js';

type Limits = Pick<FormType, 'id' | 'maxSubmissions' | 'opensAt' | 'closesAt'>;

/** Submissions the form has taken toward its cap; 0 before the first one was counted. */
export async function cappedSubmissions(em: Em, formId: string): Promise<number> {
  const rows = await em.execute<{ count: number }[]>(
    `select "count" from "form_submission_counts" where "form_id" = ? and "scope" = 'form'`,
    [formId],
  );
  return rows[0]?.count ?? 0;
}

/** Null while the form is open; a per-address cap never closes the form as a whole. */
export async function formClosedReason(em: Em, form: Limits, now = new Date()): Promise<FormClosedReasonEnum | null> {
  if (form.opensAt !== null && now < new Date(form.opensAt)) {
    return FormClosedReasonEnum.NOT_YET_OPEN;
  }
  if (form.closesAt !== null && now >= new Date(form.closesAt)) {
    return FormClosedReasonEnum.CLOSED;
  }
  if (form.maxSubmissions !== null && (await cappedSubmissions(em, form.id)) >= form.maxSubmissions) {
    return FormClosedReasonEnum.FULL;
  }
  return null;
}
