import { rm } from 'node:fs/promises';
import Router from '@koa/router';
import type { Services } from '@intake/shared';
import type { Next } from 'koa';
import { parseBody } from '../body/parse-body.js';
import type { IntakeContext, IntakeState } from '../context.js';
import type { FilePipeline } from '../files/pipeline.js';
import type { SiteLookups } from '../lookup/site-lookups.js';
import { apiKey } from '../middleware/api-key.js';
import { authFailureLimit } from '../middleware/auth-failure-limit.js';
import { formByCode } from '../middleware/form-by-code.js';
import { siteRateLimit } from '../middleware/site-rate-limit.js';
import { siteToken } from '../middleware/site-token.js';
import type { RateLimits } from '../rate-limit/rate-limits.js';
import { createSubmission } from '../submission/create-submission.js';
import { readIdempotencyKey } from '../submission/idempotency.js';
import { clientIpOf } from '../spam/captcha.js';
import type { CaptchaStage } from '../spam/captcha-stage.js';

/** One EntityManager fork for the whole request: every lookup and the insert share it. */
async function forkEntityManager(ctx: IntakeContext, next: Next): Promise<void> {
  ctx.state.em = ctx.services.db.em.fork();
  await next();
}

/** Temporary uploads are removed in every outcome: accepted, refused or failed. */
async function removeUploads(ctx: IntakeContext, next: Next): Promise<void> {
  ctx.state.uploads = [];
  try {
    await next();
  } finally {
    await Promise.all(ctx.state.uploads.map((file) => rm(file, { force: true })));
  }
}

/** POST /api/v1/send/:code — the contract's checks in its order, then the submission command. */
export function sendRouter(
  services: Services,
  pipeline: FilePipeline,
  rateLimits: RateLimits,
  lookups: SiteLookups,
  captcha: CaptchaStage,
): Router<IntakeState, { services: Services }> {
  const router = new Router<IntakeState, { services: Services }>();
  router.post(
    '/api/v1/send/:code',
    authFailureLimit(rateLimits.authFailures) as never,
    removeUploads as never,
    forkEntityManager as never,
    apiKey(services.config.apiKey) as never,
    siteToken(lookups) as never,
    formByCode(lookups) as never,
    siteRateLimit(rateLimits.submissions) as never,
    parseBody as never,
    (async (ctx: IntakeContext) => {
      const idempotencyKey = readIdempotencyKey(ctx.get('Idempotency-Key'));
      const answer = await createSubmission(ctx.services, pipeline, {
        em: ctx.state.em,
        site: ctx.state.site!,
        form: ctx.state.form!,
        webhookIds: ctx.state.webhookIds,
        fields: ctx.state.fields,
        files: ctx.state.files ?? [],
        idempotencyKey,
        captcha,
        clientIp: clientIpOf(ctx.get('X-Intake-Client-IP')),
        onSpam: (reason) => {
          ctx.state.spamReason = reason;
        },
      });
      ctx.status = 201;
      ctx.body = answer;
    }) as never,
  );
  return router;
}
