// The JSON a webhook receives, in the Standard Webhooks envelope `{ type, timestamp, data }`.
// Built at send time, so each attempt carries download links that are valid from that moment.
import type { DownloadLinks } from '../download-links/download-links.js';
import type { StoredFile, Submission } from '../entities/index.js';
import { describeStoredFile } from '../stored-file-description/index.js';

export const SUBMISSION_CREATED = 'submission.created';
export const WEBHOOK_TEST = 'webhook.test';

export interface WebhookEvent {
  type: string;
  /** ISO 8601: when this attempt was made. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface SubmissionEventInput {
  submission: Submission;
  formId: string;
  siteId: string;
  files: readonly StoredFile[];
  links: DownloadLinks;
  ttlSeconds: number;
  now: Date;
}

export function submissionCreatedEvent(input: SubmissionEventInput): WebhookEvent {
  const expiresAt = new Date(Math.floor(input.now.getTime() / 1000) * 1000 + input.ttlSeconds * 1000);
  return {
    type: SUBMISSION_CREATED,
    timestamp: input.now.toISOString(),
    data: {
      submissionId: input.submission.id,
      formId: input.formId,
      siteId: input.siteId,
      createdAt: input.submission.createdAt.toISOString(),
      data: input.submission.data,
      // Where markup was removed before storage (JSON paths): the receiver is told, not left to guess.
      sanitizedFields: input.submission.sanitizedFields ?? [],
      files: input.files.map((file) => ({
        ...describeStoredFile(file),
        downloadUrl: input.links.urlFor(file.id, input.now),
        downloadUrlExpiresAt: expiresAt.toISOString(),
      })),
    },
  };
}

/** The data of a test event, stored with its delivery when `sendTestWebhook` is called. */
export function webhookTestData(webhookId: string, formId: string, siteId: string): Record<string, unknown> {
  return { webhookId, formId, siteId, message: 'A test event from Intake: this webhook is reachable.' };
}
