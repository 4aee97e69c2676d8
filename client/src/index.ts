// @intake/client: submit to an Intake gateway from a site's backend, and verify Intake's webhooks
// (docs/client.md). No runtime dependency: Node 22's fetch, FormData, Blob and crypto, and the
// contract's codes, bundled inside the package.
export {
  IntakeClient,
  IntakeNetworkError,
  type IntakeClientOptions,
  type StoredFile,
  type SubmissionResult,
  type SubmitOptions,
} from './client.js';
export type { Fields, IntakeFile } from './body.js';
export { IntakeProblem, PROBLEM_CODES, type FieldProblem, type ProblemCode } from './problem.js';
export { IntakeRedirectError } from './redirect.js';
export type { RetryOptions } from './retry.js';
export { verifyWebhook, type VerifyOptions, type WebhookHeaders } from './webhook.js';
