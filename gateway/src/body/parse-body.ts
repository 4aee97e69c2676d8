import path from 'node:path';
import { AppError } from '@intake/shared/errors';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';
import { JSON_CONTENT_TYPE_HINT, parseJsonBody } from './json-body.js';
import type { BodyLimits } from './limits.js';
import { parseMultipartBody } from './multipart-body.js';
import { parseUrlencodedBody } from './urlencoded-body.js';

function limitsFor(ctx: IntakeContext): BodyLimits {
  const { config } = ctx.services;
  const browser = ctx.state.browser?.limits;
  if (browser) {
    // A browser post's own, smaller limits (already capped by the form's and the global ones).
    return {
      maxBodySize: browser.maxBodySize,
      maxFormBodySize: Math.min(config.limits.maxFormBodySize, browser.maxBodySize),
      maxFileSize: browser.maxFileSize,
      maxFiles: browser.maxFiles,
      tempDir: path.join(config.dataDir, 'tmp'),
    };
  }
  const formCap = ctx.state.form?.maxFileSize;
  return {
    maxBodySize: config.limits.maxBodySize,
    maxFormBodySize: Math.min(config.limits.maxFormBodySize, config.limits.maxBodySize),
    maxFileSize: formCap ? Math.min(formCap, config.limits.maxFileSize) : config.limits.maxFileSize,
    maxFiles: config.limits.maxFiles,
    tempDir: path.join(config.dataDir, 'tmp'),
  };
}

/**
 * A body that trickles in holds a connection, a request slot and (multipart) a temporary file: past
 * `ms` the read fails with 408 `body_timeout`. The error goes through the request stream, as the
 * size cap does, so whichever parser is reading stops and removes what it stored; the answer does
 * not wait for the parser, since multer would first drain the rest of the trickled body. Once the
 * answer is sent the connection is closed, which ends the parser's wait.
 */
async function withinDeadline<T>(ctx: IntakeContext, ms: number, parse: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new AppError('body_timeout', `The body did not arrive within ${ms} ms.`);
      ctx.req.emit('error', error);
      reject(error);
    }, ms);
  });
  // The parser settles after the answer when the deadline won; its outcome no longer matters.
  parse.catch(() => undefined);
  try {
    return await Promise.race([parse, deadline]);
  } finally {
    clearTimeout(timer);
  }
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
      `Send application/json, multipart/form-data or application/x-www-form-urlencoded. ${JSON_CONTENT_TYPE_HINT}`,
    );
  }
  const limits = limitsFor(ctx);
  // A body without files is read whole and parsed in memory: it gets the smaller limit.
  const maxSize = kind === 'multipart/form-data' ? limits.maxBodySize : limits.maxFormBodySize;
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > maxSize) {
    ctx.set('Connection', 'close');
    throw new AppError('payload_too_large', `The body is larger than ${maxSize} bytes.`);
  }
  const { bodyTimeoutMs } = ctx.services.config.limits;
  if (kind === 'multipart/form-data') {
    const parsing = parseMultipartBody(ctx, limits, ctx.state.uploads);
    const { fields, files } = await withinDeadline(ctx, bodyTimeoutMs, parsing);
    ctx.state.fields = fields;
    ctx.state.files = files;
    ctx.state.bodyKind = 'text';
  } else {
    const parsing =
      kind === 'application/json'
        ? (parseJsonBody(ctx, maxSize) as Promise<Record<string, unknown>>)
        : parseUrlencodedBody(ctx, maxSize);
    ctx.state.fields = await withinDeadline(ctx, bodyTimeoutMs, parsing);
    ctx.state.files = [];
    ctx.state.bodyKind = kind === 'application/json' ? 'json' : 'text';
  }
  await next();
}
