import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { FormSchema } from './form.js';
import { idProperty } from './timestamps.js';

export type SubmissionData = Record<string, unknown>;

// One accepted submission: the sanitised fields as jsonb. The unique (form, idempotency key) pair
// makes concurrent repeats of one request collide in the database instead of racing in code.
export const SubmissionSchema = defineEntity({
  name: 'Submission',
  tableName: 'submissions',
  properties: {
    id: idProperty(),
    form: () => p.manyToOne(FormSchema).deleteRule('cascade'),
    data: p.json<SubmissionData>().columnType('jsonb'),
    createdAt: p.datetime().onCreate(() => new Date()),
    idempotencyKey: p.string().length(255).nullable(),
  },
  // Newest-first pages of one form's submissions.
  indexes: [{ name: 'submissions_form_created_at_index', properties: ['form', 'createdAt', 'id'] }],
  uniques: [{ name: 'submissions_form_idempotency_key_unique', properties: ['form', 'idempotencyKey'] }],
});

export type Submission = InferEntity<typeof SubmissionSchema>;
