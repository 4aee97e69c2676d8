import type { Config } from '@intake/shared/config';
import type { Logger } from '@intake/shared/logger';
import { connectRedisStore, createRateLimiter, type RedisStore } from '@intake/shared/rate-limit';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

const WINDOW_SECONDS = 60;

/** Where the rate limits are counted right now, as /readyz reports it ('off' when every limit is 0). */
export type RateLimitStore = 'redis' | 'memory' | 'memory (redis unavailable)' | 'off';

/** The gateway's limits; a limit set to 0 is absent (off). */
export interface RateLimits {
  /** Accepted submissions per site per minute (RATE_LIMIT_PER_MINUTE). */
  submissions: RateLimiterAbstract | undefined;
  /** Failed authentications per client address per minute (AUTH_FAILURES_PER_MINUTE). */
  authFailures: RateLimiterAbstract | undefined;
  /** Browser requests per visitor address per minute (BROWSER_POSTS_PER_MINUTE). */
  browserPosts: RateLimiterAbstract | undefined;
  /** Accepted browser posts per form per minute (BROWSER_FORM_POSTS_PER_MINUTE). */
  browserFormPosts: RateLimiterAbstract | undefined;
  store(): RateLimitStore;
  /** Resolves once the first Redis connection attempt has settled (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function limiter(points: number, name: string, redis: RedisStore | undefined, redisKeyPrefix: string) {
  if (points <= 0) {
    return undefined;
  }
  return createRateLimiter({ name, points, durationSeconds: WINDOW_SECONDS, redis, redisKeyPrefix });
}

/** In memory by default; in Redis when REDIS_URL is set, so every gateway process shares the counts. */
export function createRateLimits(config: Config['rateLimits'], logger: Logger): RateLimits {
  const anyLimit = [
    config.submissionsPerMinute,
    config.authFailuresPerMinute,
    config.browserPostsPerMinute,
    config.browserFormPostsPerMinute,
  ].some((points) => points > 0);
  const redis = config.redisUrl && anyLimit ? connectRedisStore(config.redisUrl, logger) : undefined;
  return {
    submissions: limiter(config.submissionsPerMinute, 'submissions', redis, config.redisKeyPrefix),
    authFailures: limiter(config.authFailuresPerMinute, 'auth-failures', redis, config.redisKeyPrefix),
    browserPosts: limiter(config.browserPostsPerMinute, 'browser-posts', redis, config.redisKeyPrefix),
    browserFormPosts: limiter(config.browserFormPostsPerMinute, 'browser-form-posts', redis, config.redisKeyPrefix),
    store: () => {
      if (!anyLimit) {
        return 'off';
      }
      if (!redis) {
        return 'memory';
      }
      return redis.available() ? 'redis' : 'memory (redis unavailable)';
    },
    ready: () => redis?.firstAttempt ?? Promise.resolve(),
    close: () => redis?.close() ?? Promise.resolve(),
  };
}
