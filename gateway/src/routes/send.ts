import { rm } from 'node:fs/promises';
import Router from '@koa/router';
import type { Services } from '@intake/shared';
import type { Next } from 'koa';
import { parseBody } from '../body/parse-body.js';
import type { IntakeContext, IntakeState } from '../context.js';
import type { FilePipeline } from '../files/pipeline.js';
import { apiKey } from '../middleware/api-key.js';
import { formByCode } from '../middleware/form-by-code.js';
import { siteToken } from '../middleware/site-token.js';
import { createSubmission } from '../submission/create-submission.js';
import { readIdempotencyKey } from '../submission/idempotency.js';

const uploads = new WeakMap<IntakeContext, string[]>();

function createdUploads(ctx: IntakeContext): string[] {
  let list = uploads.get(ctx);
  if (!list) {
    list = [];
    uploads.set(ctx, list);
  }
  return list;
}

/** Temporary uploads are removed in every outcome: accepted, refused or failed. */
async function removeUploads(ctx: IntakeContext, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    const list = uploads.get(ctx) ?? [];
    await Promise.all(list.map((file) => rm(file, { force: true })));
  }
}

/** POST /api/v1/send/:code — the contract's checks in its order, then the submission command. */
export function sendRouter(services: Services, pipeline: FilePipeline): Router<IntakeState, { services: Services }> {
  const router = new Router<IntakeState, { services: Services }>();
  router.post(
    '/api/v1/send/:code',
    removeUploads as never,
    apiKey(services.config.apiKey) as never,
    siteToken as never,
    formByCode as never,
    parseBody(createdUploads) as never,
    (async (ctx: IntakeContext) => {
      const idempotencyKey = readIdempotencyKey(ctx.get('Idempotency-Key'));
      const answer = await createSubmission(ctx.services, pipeline, {
        form: ctx.state.form!,
        fields: ctx.state.fields,
        files: ctx.state.files ?? [],
        idempotencyKey,
      });
      ctx.status = 201;
      ctx.body = answer;
    }) as never,
  );
  return router;
}
