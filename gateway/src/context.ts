import type { Em } from '@intake/shared/db';
import type { Form, Site } from '@intake/shared/entities';
import type { AppError } from '@intake/shared/errors';
import type { Services } from '@intake/shared/services';
import type { ParameterizedContext } from 'koa';
import type { ReceivedFile } from './files/types.js';
import type { SpamReason } from './spam/content-rules.js';
import type { SubmissionAnswer } from './submission/present-submission.js';

// What the intake middleware chain adds to a request, step by step.
export interface IntakeState {
  requestId: string;
  /** The request's one EntityManager fork (intake route). */
  em: Em;
  /** Temporary upload files of this request, removed whatever the outcome. */
  uploads: string[];
  site?: Site;
  form?: Form;
  /** The form's enabled webhooks as cached with it (see site-cache.ts). */
  webhookIds?: readonly string[];
  fields?: Record<string, unknown>;
  files?: ReceivedFile[];
  /**
   * The Idempotency-Key, read once (middleware/idempotency-key.ts): the key and the first answer
   * given for it, or why the key is refused.
   */
  idempotency?: { key?: string; replay?: SubmissionAnswer; refusal?: AppError };
  /** Set when the submission was stored as spam (counted in metrics, never told to the client). */
  spamReason?: SpamReason;
}

export type IntakeContext = ParameterizedContext<IntakeState> & { services: Services };
