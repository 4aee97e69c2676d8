import { AppError } from '@intake/shared/errors';
import { isSiteTokenError, verifySiteToken } from '@intake/shared/site-token';
import type { IntakeMiddleware } from '../context.js';
import type { SiteCache } from '../site-cache/site-cache.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/**
 * Verifies the site token of `Authorization: Bearer …` and puts its site on the state: a frozen copy
 * shared with other requests (see site-cache.ts), to be referenced by id, never changed.
 */
export function siteToken(siteCache: SiteCache): IntakeMiddleware {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    if (!match?.[1]) {
      throw new AppError('token_missing', 'An Authorization: Bearer <site token> header is required.');
    }
    let verification;
    try {
      verification = await verifySiteToken(siteCache.tokens, match[1], (id) => siteCache.site(() => ctx.state.em, id));
    } catch (error) {
      if (isSiteTokenError(error)) {
        throw new AppError('token_invalid', 'The site token is not valid.');
      }
      throw error;
    }
    if (!verification.ok) {
      throw new AppError('token_invalid', 'The site token is not valid.');
    }
    ctx.state.site = verification.site;
    await next();
  };
}
