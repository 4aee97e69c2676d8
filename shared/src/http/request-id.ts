import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the middleware needs of a Koa context (typed here so the kernel does not depend on Koa). */
export interface RequestIdContext {
  get(field: string): string;
  set(field: string, value: string): void;
  state: { requestId: string };
}

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one; echoes it back. */
export async function requestId(ctx: RequestIdContext, next: () => Promise<unknown>): Promise<void> {
  const incoming = ctx.get('X-Request-Id');
  ctx.state.requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}
