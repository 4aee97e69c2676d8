import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { FormSchema } from './form.js';
import { idProperty } from './timestamps.js';

export type SubmissionData = Record<string, unknown>;

/** Where a submission is in the team's work; `archived` hides it from the inbox's default view. */
export const SUBMISSION_STATUSES = ['new', 'open', 'done', 'archived'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

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
    /** Spam is kept out of the inbox and delivered to nobody until an administrator says otherwise. */
    spam: p.boolean().default(false),
    /** Why it is spam: `honeypot`, `captcha_unavailable`, `links` or `blocked_word`. */
    spamReason: p.string().length(32).nullable(),
    /**
     * JSON paths (`message`, `items[2]`, `contact.note`) of the values the XSS sanitiser changed beyond
     * escaping: markup removed. Empty for most submissions.
     */
    sanitizedFields: p.json<string[]>().columnType('jsonb').defaultRaw(`'[]'`),
    /** The signed receipt answered with its 201 (docs/receipts.md); null for submissions stored before receipts. */
    receipt: p.text().nullable(),
    /** sha256 of all that makes two submissions the same (the gateway's contentHash), for the duplicate filter. */
    contentHash: p.string().length(64).nullable(),
    status: p.enum(SUBMISSION_STATUSES).columnType('varchar(16)').default('new'),
    /** The member who looks after it; cleared when that member is removed. */
    assignee: () => p.manyToOne(AdminUserSchema).nullable().deleteRule('set null'),
  },
  // Newest-first pages of one form's submissions.
  indexes: [
    { name: 'submissions_form_created_at_index', properties: ['form', 'createdAt', 'id'] },
    // The inbox and the Spam view of one form.
    { name: 'submissions_form_spam_created_at_index', properties: ['form', 'spam', 'createdAt', 'id'] },
    { name: 'submissions_form_content_hash_index', properties: ['form', 'contentHash', 'createdAt'] },
    // The spam retention sweep.
    { name: 'submissions_spam_created_at_index', properties: ['spam', 'createdAt'] },
    // The inbox's status counts and filter of one form.
    { name: 'submissions_form_spam_status_index', properties: ['form', 'spam', 'status'] },
  ],
  uniques: [{ name: 'submissions_form_idempotency_key_unique', properties: ['form', 'idempotencyKey'] }],
});

export type Submission = InferEntity<typeof SubmissionSchema>;
