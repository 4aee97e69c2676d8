// Figures the console lists beside sites and forms. Counted per object on request: a page lists a
// few dozen sites or forms, each count is served by an index (forms by site, submissions by form
// and date), and a field nobody selects costs nothing.
import type { Em } from '@intake/shared/db';
import { FormSchema, SubmissionSchema } from '@intake/shared/entities';

const RECENT_DAYS = 7;

/** Forms of the site that are not deleted. */
export function countLiveForms(em: Em, siteId: string): Promise<number> {
  return em.count(FormSchema, { site: siteId, deletedAt: null });
}

/** Submissions to any form of the site in the last 7 days (spam not counted). */
export function countRecentSubmissions(em: Em, siteId: string): Promise<number> {
  const since = new Date(Date.now() - RECENT_DAYS * 24 * 60 * 60 * 1000);
  return em.count(SubmissionSchema, { form: { site: siteId }, spam: false, createdAt: { $gte: since } });
}

/** Submissions of a form in the inbox (`spam` false) or the Spam view. */
export function countFormSubmissions(em: Em, formId: string, spam: boolean): Promise<number> {
  return em.count(SubmissionSchema, { form: formId, spam });
}

/** When the newest submission in the form's inbox arrived; null when none. */
export async function lastSubmissionAt(em: Em, formId: string): Promise<Date | null> {
  const newest = await em.findOne(
    SubmissionSchema,
    { form: formId, spam: false },
    { orderBy: { createdAt: 'desc', id: 'desc' }, fields: ['createdAt'] },
  );
  return newest?.createdAt ?? null;
}
