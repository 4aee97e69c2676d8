import { AppError, isAppError, toProblem } from '@intake/shared/errors';
import { toServiceError } from '@intake/shared/outage';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';

/**
 * Renders every failure as RFC 9457 problem details. AppErrors carry their status and code;
 * database and storage outages become 503; anything else is a generic 500 logged with the request
 * id (never with request values).
 */
export async function errorHandler(ctx: IntakeContext, next: Next): Promise<void> {
  try {
    await next();
    // Nothing answered: no route matched.
    if (ctx.status === 404 && ctx.body == null) {
      throw new AppError('not_found', 'No such route.');
    }
  } catch (caught) {
    const error = toServiceError(caught);
    if (!isAppError(error)) {
      ctx.services.logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
    }
    const problem = toProblem(error);
    ctx.status = problem.status;
    ctx.type = 'application/problem+json';
    ctx.body = problem;
    // A refusal may come before the body was read (credentials are checked first): without this
    // the connection stays open while the client trickles the rest of a body nobody will read.
    ctx.set('Connection', 'close');
    if (isAppError(error) && error.retryAfter !== undefined) {
      ctx.set('Retry-After', String(error.retryAfter));
    }
  }
}
