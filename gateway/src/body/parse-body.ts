import path from 'node:path';
import { AppError } from '@intake/shared';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';
import { parseJsonBody } from './json-body.js';
import type { BodyLimits } from './limits.js';
import { parseMultipartBody } from './multipart-body.js';
import { parseUrlencodedBody } from './urlencoded-body.js';

function limitsFor(ctx: IntakeContext): BodyLimits {
  const { config } = ctx.services;
  const formCap = ctx.state.form?.maxFileSize;
  return {
    maxBodySize: config.limits.maxBodySize,
    maxFileSize: formCap ? Math.min(formCap, config.limits.maxFileSize) : config.limits.maxFileSize,
    maxFiles: config.limits.maxFiles,
    tempDir: path.join(config.dataDir, 'tmp'),
  };
}

/**
 * Parses the body by its content type into `state.fields` (unvalidated) and `state.files`.
 * Temporary upload paths are pushed to `state.uploads`; removeUploads deletes them whatever happens.
 */
export async function parseBody(ctx: IntakeContext, next: Next): Promise<void> {
  const kind = ctx.request.is('application/json', 'multipart/form-data', 'application/x-www-form-urlencoded');
  if (!kind) {
    throw new AppError(
      'unsupported_media_type',
      'Send application/json, multipart/form-data or application/x-www-form-urlencoded.',
    );
  }
  const limits = limitsFor(ctx);
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limits.maxBodySize) {
    ctx.set('Connection', 'close');
    throw new AppError('payload_too_large', `The body is larger than ${limits.maxBodySize} bytes.`);
  }
  if (kind === 'multipart/form-data') {
    const { fields, files } = await parseMultipartBody(ctx, limits, ctx.state.uploads);
    ctx.state.fields = fields;
    ctx.state.files = files;
  } else if (kind === 'application/json') {
    ctx.state.fields = (await parseJsonBody(ctx, limits.maxBodySize)) as Record<string, unknown>;
    ctx.state.files = [];
  } else {
    ctx.state.fields = await parseUrlencodedBody(ctx, limits.maxBodySize);
    ctx.state.files = [];
  }
  await next();
}
