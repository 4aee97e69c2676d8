import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { SubmissionSchema } from './submission.js';

// That one member has read one submission: a row per pair, absent while it is unread for them.
export const SubmissionReadSchema = defineEntity({
  name: 'SubmissionRead',
  tableName: 'submission_reads',
  properties: {
    submission: () => p.manyToOne(SubmissionSchema).primary().deleteRule('cascade'),
    member: () => p.manyToOne(AdminUserSchema).primary().deleteRule('cascade').index(),
    readAt: p.datetime(),
  },
});

export type SubmissionRead = InferEntity<typeof SubmissionReadSchema>;
