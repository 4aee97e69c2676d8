import { isAppError, type ErrorCode } from '@intake/shared/errors';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { IntakeContext, IntakeMiddleware } from '../context.js';
import { rateLimited, setRateLimitHeaders } from '../rate-limit/rate-limit-headers.js';

const AUTHENTICATION_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'api_key_missing',
  'api_key_invalid',
  'token_missing',
  'token_invalid',
]);

/**
 * Counts the failed authentications of each client address (ctx.ip honours X-Forwarded-For only
 * with TRUST_PROXY=true). Past the limit, a further failing request from that address is answered
 * 429 instead of its own refusal, until its one-minute window ends. Only failures are judged: a
 * request whose credentials verify always goes through, so one client guessing keys cannot lock
 * out a site backend that shares its egress address. Credentials are checked before the body is
 * read, so a failing request costs one HMAC and no more.
 */
export function authFailureLimit(limiter: RateLimiterAbstract | undefined): IntakeMiddleware {
  return async (ctx, next) => {
    if (!limiter) {
      await next();
      return;
    }
    try {
      await next();
    } catch (error) {
      if (isAppError(error) && AUTHENTICATION_FAILURES.has(error.code)) {
        // Counted first and judged on the count it returns, so parallel failures cannot overshoot.
        const seen = await countOf(ctx, () => limiter.penalty(ctx.ip));
        if (seen && seen.consumedPoints > limiter.points) {
          setRateLimitHeaders(ctx, limiter.points, seen);
          throw rateLimited('Too many failed authentications from this address; retry after the window ends.', seen);
        }
      }
      throw error;
    }
  };
}

/** A limiter that cannot count (it should not happen: Redis falls back to memory) lets the request through. */
async function countOf(ctx: IntakeContext, read: () => Promise<RateLimiterRes | null>): Promise<RateLimiterRes | null> {
  try {
    return await read();
  } catch (error) {
    ctx.services.logger.warn({ err: error, requestId: ctx.state.requestId }, 'rate limits: auth failure count failed');
    return null;
  }
}
