import type { Options } from '@mikro-orm/core';
import { AdminSessionSchema } from './admin-session.js';
import { AdminUserSchema } from './admin-user.js';
import { ApiTokenSchema } from './api-token.js';
import { AuditChainHeadSchema, AuditCheckpointSchema } from './audit-chain.js';
import { AuditEntrySchema } from './audit-entry.js';
import { ConfirmationCountSchema } from './confirmation-count.js';
import { DeliveryAttemptSchema } from './delivery-attempt.js';
import { DeliverySchema } from './delivery.js';
import { FormSubmissionCountSchema } from './form-submission-count.js';
import { FormSchema } from './form.js';
import { MemberSiteGrantSchema } from './member-site-grant.js';
import { PasskeyChallengeSchema, PasskeySchema } from './passkey.js';
import { PasswordResetSchema } from './password-reset.js';
import { RecoveryCodeSchema } from './recovery-code.js';
import { RefusalCountSchema } from './refusal-count.js';
import { SecondFactorChallengeSchema } from './second-factor-challenge.js';
import { SiteSchema } from './site.js';
import { SsoPolicySchema } from './sso-policy.js';
import { StoredFileSchema } from './stored-file.js';
import { SubmissionNoteSchema } from './submission-note.js';
import { SubmissionReadSchema } from './submission-read.js';
import { SubmissionSearchPendingSchema, SubmissionSearchSchema } from './submission-search.js';
import { SubmissionSchema } from './submission.js';
import { TeamPolicySchema } from './team-policy.js';
import { UsedChallengeSchema } from './used-challenge.js';
import { WebhookSchema } from './webhook.js';

export * from './admin-session.js';
export * from './admin-user.js';
export * from './api-token.js';
export * from './audit-chain.js';
export * from './audit-entry.js';
export * from './confirmation-count.js';
export * from './delivery-attempt.js';
export * from './delivery.js';
export * from './form-submission-count.js';
export * from './form.js';
export * from './member-site-grant.js';
export * from './passkey.js';
export * from './password-reset.js';
export * from './recovery-code.js';
export * from './refusal-count.js';
export * from './second-factor-challenge.js';
export * from './site.js';
export * from './sso-policy.js';
export * from './stored-file.js';
export * from './submission-note.js';
export * from './submission-read.js';
export * from './submission-search.js';
export * from './submission.js';
export * from './team-policy.js';
export * from './used-challenge.js';
export * from './webhook.js';

// Typed as the list MikroORM's `entities` option takes: the inferred tuple of every schema grew past
// what the compiler will write into a declaration file.
export const ENTITIES: Options['entities'] = [
  SiteSchema,
  FormSchema,
  SubmissionSchema,
  SubmissionSearchSchema,
  SubmissionSearchPendingSchema,
  StoredFileSchema,
  AdminUserSchema,
  AdminSessionSchema,
  ApiTokenSchema,
  WebhookSchema,
  DeliverySchema,
  DeliveryAttemptSchema,
  RefusalCountSchema,
  AuditEntrySchema,
  AuditChainHeadSchema,
  AuditCheckpointSchema,
  MemberSiteGrantSchema,
  SsoPolicySchema,
  RecoveryCodeSchema,
  SecondFactorChallengeSchema,
  TeamPolicySchema,
  PasskeySchema,
  PasskeyChallengeSchema,
  UsedChallengeSchema,
  PasswordResetSchema,
  FormSubmissionCountSchema,
  SubmissionNoteSchema,
  SubmissionReadSchema,
  ConfirmationCountSchema,
];
