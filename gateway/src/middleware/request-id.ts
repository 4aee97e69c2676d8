import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one; echoes it back. */
export async function requestId(ctx: IntakeContext, next: Next): Promise<void> {
  const incoming = ctx.get('X-Request-Id');
  ctx.state.requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}
