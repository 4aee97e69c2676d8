import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { IntakeContext, IntakeMiddleware } from '../context.js';
import { rateLimited, setRateLimitHeaders } from '../rate-limit/rate-limit-headers.js';

/**
 * Accepted submissions per site per minute. A point is taken before the body is read, so
 * concurrent requests cannot overshoot the limit, and given back when the request does not end in
 * 201, so only accepted submissions count. An Idempotency-Key replay stores nothing and costs nothing.
 */
export function siteRateLimit(limiter: RateLimiterAbstract | undefined): IntakeMiddleware {
  return async (ctx, next) => {
    // The replay was looked up by the idempotency-key middleware, which runs first.
    if (!limiter || ctx.state.idempotency?.replay !== undefined) {
      await next();
      return;
    }
    const siteId = ctx.state.site!.id;
    let taken: RateLimiterRes;
    try {
      taken = await limiter.consume(siteId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Cannot count (it should not happen: Redis falls back to memory): let the request through.
        ctx.services.logger.warn({ err: rejection, requestId: ctx.state.requestId }, 'rate limits: site count failed');
        await next();
        return;
      }
      // The refused request took a point too: give it back, so the count stays "accepted + in flight".
      await giveBack(ctx, limiter, siteId);
      setRateLimitHeaders(ctx, limiter.points, rejection);
      throw rateLimited('Too many submissions for this site; retry after the window ends.', rejection);
    }
    setRateLimitHeaders(ctx, limiter.points, taken);
    let accepted = false;
    try {
      await next();
      accepted = ctx.status === 201;
    } finally {
      if (!accepted) {
        const after = await giveBack(ctx, limiter, siteId);
        if (after) {
          setRateLimitHeaders(ctx, limiter.points, after);
        }
      }
    }
  };
}

async function giveBack(ctx: IntakeContext, limiter: RateLimiterAbstract, siteId: string) {
  try {
    return await limiter.reward(siteId);
  } catch (error) {
    ctx.services.logger.warn({ err: error, requestId: ctx.state.requestId }, 'rate limits: giving a point back failed');
    return undefined;
  }
}
