import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { SubmissionSchema } from './submission.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// An internal note on a submission (docs/submissions.md#status-assignee-and-notes): the team's, never
// sent to webhooks or in notification e-mails. Its text is stored sanitised, as submitted text is.
export const SubmissionNoteSchema = defineEntity({
  name: 'SubmissionNote',
  tableName: 'submission_notes',
  properties: {
    id: idProperty(),
    submission: () => p.manyToOne(SubmissionSchema).deleteRule('cascade').index(),
    /** Null once its author was removed from the team: the note stays. */
    author: () => p.manyToOne(AdminUserSchema).nullable().deleteRule('set null'),
    text: p.text(),
    createdAt: createdAtProperty(),
  },
});

export type SubmissionNote = InferEntity<typeof SubmissionNoteSchema>;
