import { ERROR_CATALOGUE } from '@intake/shared/errors';
import type { Logger } from '@intake/shared/logger';
import type { Next } from 'koa';
import type { AdminKoaContext } from '../koa-context.js';

/**
 * Last resort for the plain routes (GraphQL errors never get here): a client error keeps its status
 * and a short generic text; anything else is a 500 that says nothing and is logged with the request id.
 */
export function errorHandler(logger: Logger) {
  return async (ctx: AdminKoaContext, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      const status =
        typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
      if (status >= 500 || status < 400) {
        logger.error(
          { err: error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path },
          'request failed',
        );
        ctx.status = ERROR_CATALOGUE.internal_error.status;
        ctx.body = ERROR_CATALOGUE.internal_error.title;
      } else {
        ctx.status = status;
        ctx.body = ctx.message;
      }
      ctx.type = 'text/plain';
    }
  };
}
