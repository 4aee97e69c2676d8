import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { FormSchema } from './form.js';

// How many submissions a capped form accepted (docs/submissions.md#caps-and-a-schedule): one row for
// the form (`scope` 'form') and one per sender's address (`scope` the SHA-256 of the address,
// lower-cased; never the address). The gateway adds to a row with a guarded UPDATE in the same
// transaction as the submission, so the cap holds under concurrency. Deleting a submission leaves it.
export const FormSubmissionCountSchema = defineEntity({
  name: 'FormSubmissionCount',
  tableName: 'form_submission_counts',
  properties: {
    form: () => p.manyToOne(FormSchema).primary().deleteRule('cascade'),
    scope: p.string().length(64).primary(),
    count: p.integer(),
  },
});

export type FormSubmissionCount = InferEntity<typeof FormSubmissionCountSchema>;
