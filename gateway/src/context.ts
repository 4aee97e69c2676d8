import type { Em, Form, Services, Site } from '@intake/shared';
import type { ParameterizedContext } from 'koa';
import type { ReceivedFile } from './files/types.js';
import type { SpamReason } from './spam/content-rules.js';

// What the intake middleware chain adds to a request, step by step.
export interface IntakeState {
  requestId: string;
  /** The request's one EntityManager fork (intake route). */
  em: Em;
  /** Temporary upload files of this request, removed whatever the outcome. */
  uploads: string[];
  site?: Site;
  form?: Form;
  /** The form's enabled webhooks as cached with it (see site-lookups.ts). */
  webhookIds?: readonly string[];
  fields?: Record<string, unknown>;
  files?: ReceivedFile[];
  /** Set when the submission was stored as spam (counted in metrics, never told to the client). */
  spamReason?: SpamReason;
}

export type IntakeContext = ParameterizedContext<IntakeState> & { services: Services };
