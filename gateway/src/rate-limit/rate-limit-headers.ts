import { AppError } from '@intake/shared/errors';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { IntakeContext } from '../context.js';

function secondsUntilReset(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

/** RateLimit-Limit, -Remaining and -Reset (seconds until the window ends) of one limit. */
export function setRateLimitHeaders(ctx: IntakeContext, limit: number, result: RateLimiterRes): void {
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(Math.min(limit, Math.max(0, limit - result.consumedPoints))));
  ctx.set('RateLimit-Reset', String(secondsUntilReset(result)));
}

/** 429 rate_limited; the error handler turns retryAfter into Retry-After. */
export function rateLimited(detail: string, result: RateLimiterRes): AppError {
  return new AppError('rate_limited', detail, { retryAfter: secondsUntilReset(result) });
}
