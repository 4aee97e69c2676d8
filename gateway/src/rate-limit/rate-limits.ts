import type { Config, Logger } from '@intake/shared';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { connectRedisStore, type RateLimitStore, type RedisStore } from './redis-store.js';

const WINDOW_SECONDS = 60;

/** The gateway's two limits; a limit set to 0 is absent (off). */
export interface RateLimits {
  /** Accepted submissions per site per minute (RATE_LIMIT_PER_MINUTE). */
  submissions: RateLimiterAbstract | undefined;
  /** Failed authentications per client address per minute (AUTH_FAILURES_PER_MINUTE). */
  authFailures: RateLimiterAbstract | undefined;
  store(): RateLimitStore;
  /** Resolves once the first Redis connection attempt has settled (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function limiter(points: number, name: string, redis: RedisStore | undefined, prefix: string) {
  if (points <= 0) {
    return undefined;
  }
  const options = { points, duration: WINDOW_SECONDS, keyPrefix: name };
  if (!redis) {
    return new RateLimiterMemory(options);
  }
  // While Redis is down each process counts on its own, so requests go on instead of failing.
  return new RateLimiterRedis({
    ...options,
    keyPrefix: `${prefix}:rate-limit:${name}`,
    storeClient: redis.client,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** In memory by default; in Redis when REDIS_URL is set, so every gateway process shares the counts. */
export function createRateLimits(config: Config['rateLimits'], logger: Logger): RateLimits {
  const anyLimit = config.submissionsPerMinute > 0 || config.authFailuresPerMinute > 0;
  const redis = config.redisUrl && anyLimit ? connectRedisStore(config.redisUrl, logger) : undefined;
  return {
    submissions: limiter(config.submissionsPerMinute, 'submissions', redis, config.redisKeyPrefix),
    authFailures: limiter(config.authFailuresPerMinute, 'auth-failures', redis, config.redisKeyPrefix),
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
