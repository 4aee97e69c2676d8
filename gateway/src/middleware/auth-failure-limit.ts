import { isAppError, type ErrorCode } from '@intake/shared';
import type { Next } from 'koa';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { IntakeContext } from '../context.js';
import { rateLimited, setRateLimitHeaders } from '../rate-limit/answer.js';

const AUTHENTICATION_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'api_key_missing',
  'api_key_invalid',
  'token_missing',
  'token_invalid',
]);

/**
 * Counts the failed authentications of each client address (ctx.ip honours X-Forwarded-For only
 * with TRUST_PROXY=true). Once an address reaches the limit, every request from it is refused with
 * 429 before any other check, until its one-minute window ends.
 */
export function authFailureLimit(limiter: RateLimiterAbstract | undefined) {
  return async (ctx: IntakeContext, next: Next): Promise<void> => {
    if (!limiter) {
      await next();
      return;
    }
    const address = ctx.ip;
    const seen = await countOf(ctx, () => limiter.get(address));
    if (seen && seen.consumedPoints >= limiter.points) {
      setRateLimitHeaders(ctx, limiter.points, seen);
      throw rateLimited('Too many failed authentications from this address; retry after the window ends.', seen);
    }
    try {
      await next();
    } catch (error) {
      if (isAppError(error) && AUTHENTICATION_FAILURES.has(error.code)) {
        await countOf(ctx, () => limiter.penalty(address));
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
