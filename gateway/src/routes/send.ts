import { unlink } from 'node:fs/promises';
import Router from '../koa-router.js';
import type { Services } from '@intake/shared/services';
import { CHALLENGE_FIELD } from '@intake/shared/browser-posting';
import { parseBody } from '../body/parse-body.js';
import { answerAccepted, browserRefusalPages, thankYouAddress } from '../browser/answers.js';
import { backendOnly, browserForm, browserOnly, browserRateLimits, isBrowserPost } from '../browser/browser-post.js';
import { challengeRefusal, checkChallengeAnswer, type ChallengeKeys } from '../browser/challenge.js';
import { KEPT_RESERVED_FIELDS, takeReservedFields } from '../browser/reserved-fields.js';
import type { IntakeContext, IntakeCustomContext, IntakeMiddleware, IntakeState } from '../context.js';
import type { FilePipeline } from '../files/pipeline.js';
import type { SiteCache } from '../site-cache/site-cache.js';
import { apiKey } from '../middleware/api-key.js';
import { authFailureLimit } from '../middleware/auth-failure-limit.js';
import { formByCode } from '../middleware/form-by-code.js';
import { formOpen } from '../middleware/form-open.js';
import { idempotencyKey } from '../middleware/idempotency-key.js';
import { siteRateLimit } from '../middleware/site-rate-limit.js';
import { siteToken } from '../middleware/site-token.js';
import type { RateLimits } from '../rate-limit/rate-limits.js';
import { createSubmission, type SubmissionInput } from '../submission/create-submission.js';
import type { SubmissionStore } from '../submission/submission-store.js';
import { clientIpOf } from '../spam/captcha.js';
import type { CaptchaStage } from '../spam/captcha-stage.js';

/**
 * One EntityManager fork for the whole request: every lookup and write that needs one shares it. It is
 * made on first use: with the site and form cached, a plain submission needs none (a fork cost about a
 * tenth of such a request's CPU).
 */
const forkEntityManager: IntakeMiddleware = async (ctx, next) => {
  let forked: IntakeState['em'] | undefined;
  const db = ctx.services.db;
  Object.defineProperty(ctx.state, 'em', {
    get: () => (forked ??= db.em.fork()),
    set: (em: IntakeState['em']) => {
      forked = em;
    },
    configurable: true,
    enumerable: true,
  });
  await next();
};

/**
 * Temporary uploads are removed in every outcome: accepted, refused or failed. An accepted one was
 * moved into storage, and taken off the list then (forgetUpload). `unlink`, not `rm`: each is a
 * file, and `rm` looks at what the path is (lstat) before removing it, a system call per upload for
 * nothing.
 */
const removeUploads: IntakeMiddleware = async (ctx, next) => {
  ctx.state.uploads = [];
  try {
    await next();
  } finally {
    await Promise.all(ctx.state.uploads.map((file) => unlink(file).catch(ignoreMissing)));
  }
};

/**
 * Takes an upload that storage moved off the request's list: unlinking a path that is gone cost
 * about 35 µs of CPU (a thread-pool call and an ENOENT error with its stack), per accepted file.
 */
function forgetUpload(uploads: string[], path: string): void {
  const at = uploads.indexOf(path);
  if (at >= 0) {
    uploads.splice(at, 1);
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') {
    throw error;
  }
}

/**
 * What a browser post adds to the submission (docs/static-sites.md): reserved field names read (when
 * the form allows them), and the challenge checked after the CAPTCHA provider's.
 */
function browserSubmission(
  ctx: IntakeContext,
  keys: ChallengeKeys,
): { input: Partial<SubmissionInput>; fields: Record<string, unknown>; next: string | undefined } {
  const form = ctx.state.form!;
  const reserved =
    (form.browserReservedFields ?? true)
      ? takeReservedFields(ctx.state.fields ?? {})
      : { fields: ctx.state.fields ?? {}, next: undefined, honeypot: false };
  const mode = form.browserChallenge ?? 'required';
  const input: Partial<SubmissionInput> = {
    exemptFields: [
      ...(mode === 'off' ? [] : [CHALLENGE_FIELD]),
      ...((form.browserReservedFields ?? true) ? KEPT_RESERVED_FIELDS : []),
    ],
    ...(reserved.honeypot ? { spamReason: 'honeypot' as const } : {}),
  };
  if (mode !== 'off') {
    input.challenge = async (fields) => {
      const checked = await checkChallengeAnswer(keys, ctx.state.em, form, fields);
      if (checked.failure === null) {
        return { fields: checked.fields };
      }
      if (mode === 'required') {
        throw challengeRefusal(checked.failure);
      }
      return { fields: checked.fields, spamReason: checked.failure };
    };
  }
  return { input, fields: reserved.fields, next: reserved.next };
}

/**
 * POST /api/v1/send/:code — the contract's checks in its order, then the submission command. A post
 * with credentials takes the backend's steps; one without, the browser's (browser/browser-post.ts).
 */
export function sendRouter(
  services: Services,
  pipeline: FilePipeline,
  store: SubmissionStore,
  rateLimits: RateLimits,
  siteCache: SiteCache,
  captcha: CaptchaStage,
  challengeKeys: ChallengeKeys,
): Router<IntakeState, IntakeCustomContext> {
  const router = new Router<IntakeState, IntakeCustomContext>();
  const steps = { services, pipeline, store };
  router.post(
    '/api/v1/send/:code',
    browserRefusalPages,
    authFailureLimit(rateLimits.authFailures),
    removeUploads,
    forkEntityManager,
    backendOnly(apiKey(services.config.apiKey)),
    backendOnly(siteToken(siteCache)),
    backendOnly(formByCode(siteCache)),
    browserOnly(browserForm(siteCache)),
    browserOnly(browserRateLimits(rateLimits.browserPosts, rateLimits.browserFormPosts)),
    idempotencyKey,
    formOpen,
    backendOnly(siteRateLimit(rateLimits.submissions)),
    parseBody,
    async (ctx) => {
      const { key, replay, refusal } = ctx.state.idempotency ?? {};
      if (refusal) {
        throw refusal;
      }
      const browser = isBrowserPost(ctx) ? browserSubmission(ctx, challengeKeys) : undefined;
      const answer = await createSubmission(steps, {
        ...browser?.input,
        site: ctx.state.site!,
        form: ctx.state.form!,
        webhookIds: ctx.state.webhookIds,
        fields: browser ? browser.fields : ctx.state.fields,
        bodyKind: ctx.state.bodyKind,
        shape: ctx.state.shape,
        files: ctx.state.files ?? [],
        idempotencyKey: key,
        replay,
        captcha,
        // A browser connects itself: its address is the request's (a header it sent is not believed).
        clientIp: clientIpOf(browser ? ctx.ip : ctx.get('X-Intake-Client-IP')),
        onSpam: (reason) => {
          ctx.state.spamReason = reason;
        },
        onUploadMoved: (path) => forgetUpload(ctx.state.uploads, path),
      });
      if (browser) {
        answerAccepted(ctx, answer, thankYouAddress(ctx, ctx.state.form!, browser.next, answer));
        return;
      }
      ctx.status = 201;
      ctx.body = answer;
    },
  );
  return router;
}
