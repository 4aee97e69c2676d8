import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SubmissionSchema } from './submission.js';

// The text search of a submission's values, apart from its row (docs/decisions/search-off-request-path.md):
// one lower-case, accent-free text per submission, computed in SQL by intake_submission_search_text
// from `data`, written by the worker from the queue below (and at once when `data` or `created_at`
// changes), read only in SQL conditions (admin-api's submission filter). The submission's form and
// creation time are copied here so a text search with creation bounds narrows by both in this table.
export const SubmissionSearchSchema = defineEntity({
  name: 'SubmissionSearch',
  tableName: 'submission_search',
  properties: {
    submission: () => p.manyToOne(SubmissionSchema).primary().deleteRule('cascade'),
    /** The submission's form, so a search reads only this table's rows of one form. */
    formId: p.uuid(),
    searchText: p.text(),
    /** The submission's `createdAt`, so a text search with creation bounds reads only their rows. */
    createdAt: p.datetime(),
  },
  indexes: [
    // With the trigram index, in one BitmapAnd: text + creation bounds (the console's "last 30 days").
    { name: 'submission_search_form_id_created_at_index', properties: ['formId', 'createdAt'] },
    // Text search over the values (admin API `submissions(filter: { query })`).
    {
      name: 'submission_search_search_text_trgm_index',
      expression:
        'create index "submission_search_search_text_trgm_index" on "submission_search" using gin ("search_text" gin_trgm_ops)',
    },
  ],
});

export type SubmissionSearch = InferEntity<typeof SubmissionSearchSchema>;

// A submission whose search row is not written yet: queued by a trigger on every INSERT into
// `submissions`, taken and deleted by the worker. No foreign key, so queueing costs one small insert.
export const SubmissionSearchPendingSchema = defineEntity({
  name: 'SubmissionSearchPending',
  tableName: 'submission_search_pending',
  properties: {
    submissionId: p.uuid().primary(),
    formId: p.uuid(),
  },
});

export type SubmissionSearchPending = InferEntity<typeof SubmissionSearchPendingSchema>;
