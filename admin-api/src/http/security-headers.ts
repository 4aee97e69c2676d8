import type { Next } from 'koa';
import type { AdminKoaContext } from '../koa-context.js';

/** Every admin answer may hold tokens or customer data: never cached, never sniffed, never framed. */
export async function securityHeaders(ctx: AdminKoaContext, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  await next();
}
