// The JSON body of POST /graphql, read with a size limit (Apollo's Koa integration expects
// `ctx.request.body` set). Other content types are left for Apollo, which refuses them.
import type { Next } from 'koa';
import getRawBody from 'raw-body';
import type { AdminKoaContext } from '../koa-context.js';

export const GRAPHQL_BODY_LIMIT = 1024 * 1024;

function reply(ctx: AdminKoaContext, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
}

/** The whole body, or null as soon as it is over `limit` (reading then stops). */
async function readBody(ctx: AdminKoaContext, limit: number): Promise<Buffer | null> {
  try {
    // raw-body refuses at once when Content-Length is over the limit, and stops reading when the
    // bytes pass it.
    return await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
  } catch (error) {
    if ((error as { type?: unknown }).type === 'entity.too.large') {
      return null;
    }
    throw error;
  }
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
    const body = await readBody(ctx, limit);
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
