// Submissions per form and UTC day, read for the console's statistics. Counted from "submissions"
// itself, so nothing can disagree with what is stored; each half of the filter is served by the
// ("spam", "created_at") index.
import type { Em } from '../db/orm.js';
import { startOfUtcDay } from './utc-days.js';

export interface SubmissionCountRow {
  formId: string;
  formName: string;
  siteId: string;
  siteName: string;
  day: string;
  /** Submissions in the inbox. */
  count: number;
  /** Submissions stored as spam. */
  spam: number;
}

/** Counts from the start of `fromDay` (`YYYY-MM-DD`, UTC) on, for forms and sites not deleted. */
export async function readSubmissionCounts(em: Em, fromDay: string): Promise<SubmissionCountRow[]> {
  const from = startOfUtcDay(fromDay);
  return em.execute<SubmissionCountRow[]>(
    `select s."form_id" as "formId", f."name" as "formName", f."site_id" as "siteId", si."name" as "siteName",
            to_char(s."created_at" at time zone 'UTC', 'YYYY-MM-DD') as "day",
            (count(*) filter (where not s."spam"))::int as "count",
            (count(*) filter (where s."spam"))::int as "spam"
       from "submissions" s
       join "forms" f on f."id" = s."form_id" and f."deleted_at" is null
       join "sites" si on si."id" = f."site_id" and si."deleted_at" is null
      where (not s."spam" and s."created_at" >= ?) or (s."spam" and s."created_at" >= ?)
      group by s."form_id", f."name", f."site_id", si."name", 5`,
    [from, from],
    'all',
  );
}
