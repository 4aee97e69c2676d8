import { unlink } from 'node:fs/promises';
import Router from '@koa/router';
import type { Services } from '@intake/shared/services';
import { parseBody } from '../body/parse-body.js';
import type { IntakeCustomContext, IntakeMiddleware, IntakeState } from '../context.js';
import type { FilePipeline } from '../files/pipeline.js';
import type { SiteCache } from '../site-cache/site-cache.js';
import { apiKey } from '../middleware/api-key.js';
import { authFailureLimit } from '../middleware/auth-failure-limit.js';
import { formByCode } from '../middleware/form-by-code.js';
import { idempotencyKey } from '../middleware/idempotency-key.js';
import { siteRateLimit } from '../middleware/site-rate-limit.js';
import { siteToken } from '../middleware/site-token.js';
import type { RateLimits } from '../rate-limit/rate-limits.js';
import { createSubmission } from '../submission/create-submission.js';
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

/** POST /api/v1/send/:code — the contract's checks in its order, then the submission command. */
export function sendRouter(
  services: Services,
  pipeline: FilePipeline,
  store: SubmissionStore,
  rateLimits: RateLimits,
  siteCache: SiteCache,
  captcha: CaptchaStage,
): Router<IntakeState, IntakeCustomContext> {
  const router = new Router<IntakeState, IntakeCustomContext>();
  const steps = { services, pipeline, store };
  router.post(
    '/api/v1/send/:code',
    authFailureLimit(rateLimits.authFailures),
    removeUploads,
    forkEntityManager,
    apiKey(services.config.apiKey),
    siteToken(siteCache),
    formByCode(siteCache),
    idempotencyKey,
    siteRateLimit(rateLimits.submissions),
    parseBody,
    async (ctx) => {
      const { key, replay, refusal } = ctx.state.idempotency ?? {};
      if (refusal) {
        throw refusal;
      }
      const answer = await createSubmission(steps, {
        site: ctx.state.site!,
        form: ctx.state.form!,
        webhookIds: ctx.state.webhookIds,
        fields: ctx.state.fields,
        bodyKind: ctx.state.bodyKind,
        shape: ctx.state.shape,
        files: ctx.state.files ?? [],
        idempotencyKey: key,
        replay,
        captcha,
        clientIp: clientIpOf(ctx.get('X-Intake-Client-IP')),
        onSpam: (reason) => {
          ctx.state.spamReason = reason;
        },
        onUploadMoved: (path) => forgetUpload(ctx.state.uploads, path),
      });
      ctx.status = 201;
      ctx.body = answer;
    },
  );
  return router;
}
