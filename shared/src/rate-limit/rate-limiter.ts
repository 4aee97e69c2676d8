import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisStore } from './redis-store.js';

export interface RateLimiterOptions {
  /** What is counted; part of the key prefix, so limiters never share keys. */
  name: string;
  /** Allowed per window. */
  points: number;
  durationSeconds: number;
  /** Shared counters in Redis; without it, counted in this process's memory. */
  redis?: RedisStore | undefined;
  /** REDIS_KEY_PREFIX: keeps deployments sharing one Redis apart. */
  redisKeyPrefix: string;
}

/**
 * A fixed-window limiter: in memory, or in Redis so that every process shares the counts. While
 * Redis is down each process counts on its own (the insurance limiter), so requests go on instead
 * of failing.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiterAbstract {
  const memoryOptions = { points: options.points, duration: options.durationSeconds, keyPrefix: options.name };
  if (!options.redis) {
    return new RateLimiterMemory(memoryOptions);
  }
  return new RateLimiterRedis({
    ...memoryOptions,
    keyPrefix: `${options.redisKeyPrefix}:rate-limit:${options.name}`,
    storeClient: options.redis.client,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(memoryOptions),
  });
}
