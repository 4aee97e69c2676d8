// The JSON body of POST /graphql, read with a size limit (Apollo's Koa integration expects
// `ctx.request.body` set). Other content types are left for Apollo, which refuses them.
import type { IncomingMessage } from 'node:http';
import type { Next } from 'koa';
import type { AdminKoaContext } from '../context.js';

export const GRAPHQL_BODY_LIMIT = 1024 * 1024;

function reply(ctx: AdminKoaContext, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
}

/** The whole body, or null as soon as it is over `limit` (reading then stops). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        request.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

export function jsonBody(limit = GRAPHQL_BODY_LIMIT) {
  return async (ctx: AdminKoaContext, next: Next): Promise<void> => {
    const request = ctx.request as typeof ctx.request & { body?: unknown };
    if (ctx.method !== 'POST') {
      await next();
      return;
    }
    if (!ctx.is('application/json', 'application/*+json')) {
      request.body = {};
      await next();
      return;
    }
    const body = Number(ctx.get('content-length') || '0') > limit ? null : await readBody(ctx.req, limit);
    if (body === null) {
      // The rest of the body is never read: close the connection after answering.
      ctx.set('Connection', 'close');
      reply(ctx, 413, 'Request body too large');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      reply(ctx, 400, 'Malformed JSON body');
      return;
    }
    // A falsy body (`null`, `0`) would read as "no body parser" to the integration; Apollo refuses `{}`.
    request.body = parsed || {};
    await next();
  };
}
