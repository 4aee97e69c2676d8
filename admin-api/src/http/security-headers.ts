import type { Next } from 'koa';
import { HSTS_HEADER } from '@intake/shared/public-urls';
import type { AdminKoaContext } from '../koa-context.js';

/**
 * Every admin answer may hold tokens or customer data: never cached, never sniffed, never framed.
 * With an https public address (or an https request), browsers are told to use https only (HSTS).
 */
export function securityHeaders(publicHttps: boolean) {
  return async (ctx: AdminKoaContext, next: Next): Promise<void> => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (publicHttps || ctx.secure) {
      ctx.set('Strict-Transport-Security', HSTS_HEADER);
    }
    await next();
  };
}
