import { AppError } from '@intake/shared/errors';
import type { IntakeMiddleware } from '../context.js';
import type { SiteCache } from '../site-cache/site-cache.js';

const FORM_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Finds the form of the URL's code that belongs to the token's site and accepts submissions: a
 * frozen copy shared with other requests (see site-cache.ts), to be referenced by id, never changed,
 * and the ids of its enabled webhooks.
 */
export function formByCode(siteCache: SiteCache): IntakeMiddleware {
  return async (ctx, next) => {
    const code = String(ctx.params?.code ?? '');
    const site = ctx.state.site;
    const found = site && FORM_CODE.test(code) ? await siteCache.form(() => ctx.state.em, site, code) : null;
    // One answer for "no such form", "another site's form" and "disabled": a caller learns nothing.
    if (!found) {
      throw new AppError('form_forbidden', 'This form does not accept submissions with these credentials.');
    }
    ctx.state.form = found.form;
    ctx.state.webhookIds = found.webhookIds;
    ctx.state.shape = found.shape;
    await next();
  };
}
