// HSTS on every answer when the gateway's public address is https (or the request came over https
// through a trusted proxy): a browser that once reached it never tries plain http on that host again.
import { HSTS_HEADER } from '@intake/shared/public-urls';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';

export function transportSecurity(publicHttps: boolean) {
  return async (ctx: IntakeContext, next: Next): Promise<void> => {
    if (publicHttps || ctx.secure) {
      ctx.set('Strict-Transport-Security', HSTS_HEADER);
    }
    await next();
  };
}
