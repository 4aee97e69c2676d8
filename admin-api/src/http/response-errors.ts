// Errors Koa reports after the middlewares returned: a download stream failing half-way is logged
// with its stack, for an operator to look at; a browser that went away mid-answer (a closed tab, a
// reload during the console's load) is not a fault, and gets one debug line without a stack.
import type { Logger } from '@intake/shared/logger';
import type { AdminKoaContext } from '../koa-context.js';

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Whether the error only says that the client closed the connection before the answer's end. */
export function clientWentAway(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

/** The app's `error` listener. */
export function logResponseErrors(logger: Logger) {
  return (error: unknown, ctx?: AdminKoaContext): void => {
    if ((error as { expose?: unknown }).expose === true) {
      return;
    }
    const requestId = ctx?.state.requestId;
    if (clientWentAway(error)) {
      logger.debug({ requestId, code: (error as { code: string }).code }, 'client went away mid-answer');
      return;
    }
    logger.warn({ err: error, requestId }, 'response failed');
  };
}
