// Form retention: a form with `retentionDays` keeps each submission (spam included) that many days
// and then deletes it with its stored files and deliveries. Run by the delivery worker beside the
// spam sweep; any number of workers may run it at once: each batch locks its rows with
// `FOR UPDATE SKIP LOCKED`, so two sweeps never take the same submission nor wait on each other.
// Deleted forms and forms of deleted sites keep their setting: their submissions still expire.
import { deleteSubmissionsInBatches, retentionCutoff } from '@intake/shared/lifecycle';
import type { Services } from '@intake/shared/services';

const FORMS_SQL = `select "id", "retention_days" from "forms" where "retention_days" is not null order by "id"`;

// Served by submissions_form_created_at_index (form_id, created_at, id).
const BATCH_SQL = `
select "id" from "submissions"
 where "form_id" = ? and "created_at" < ?
 order by "created_at", "id"
 limit ?
   for update skip locked`;

export interface FormRetentionOptions {
  /** Submissions deleted per transaction; default 100. */
  batchSize?: number;
  now?: () => Date;
}

export interface FormRetentionResult {
  deleted: number;
  /** Forms that lost submissions in this run, with how many. */
  forms: { formId: string; deleted: number }[];
}

/** Deletes the expired submissions of every form with a retention, form by form, batch by batch. */
export async function deleteExpiredSubmissions(
  services: Pick<Services, 'db' | 'storage' | 'logger'>,
  options: FormRetentionOptions = {},
): Promise<FormRetentionResult> {
  const batchSize = options.batchSize ?? 100;
  const now = options.now?.() ?? new Date();
  const forms = await services.db.em.fork().execute<{ id: string; retention_days: number }[]>(FORMS_SQL, [], 'all');
  const result: FormRetentionResult = { deleted: 0, forms: [] };
  for (const form of forms) {
    const cutoff = retentionCutoff(form.retention_days, now);
    const deleted = await deleteSubmissionsInBatches(
      services,
      async (tx, limit) => {
        const rows = await tx.execute<{ id: string }[]>(BATCH_SQL, [form.id, cutoff, limit], 'all');
        return rows.map((row) => row.id);
      },
      { batchSize, what: 'expired submissions' },
    );
    if (deleted > 0) {
      result.deleted += deleted;
      result.forms.push({ formId: form.id, deleted });
    }
  }
  return result;
}
