// Attempt counters for login brute-force protection, on rate-limiter-flexible: fixed windows in
// memory, or in Redis when REDIS_URL is set, so that several admin processes share the counts
// (while Redis is down each process counts on its own). An attempt is counted when it starts (not
// when it fails), so parallel guesses cannot slip past the limit while the password hashes run.
import { createHash } from 'node:crypto';
import { createRateLimiter, type RedisStore } from '@intake/shared/rate-limit';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One attempt: which limit it counts against, and whose count (e-mail and address, address, admin). */
export interface Attempt<Limit extends string> {
  limit: Limit;
  key: string;
}

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface AttemptLimiter<Limit extends string> {
  /** Counts one attempt against every key, or refuses (counting nothing) when one is over its limit. */
  consume(attempts: readonly Attempt<Limit>[]): Promise<AttemptDecision>;
  /** Forgets every attempt of a key (after a success). */
  reset(attempt: Attempt<Limit>): Promise<void>;
  /** Gives one attempt back (a success that must not count against a shared key). */
  release(attempt: Attempt<Limit>): Promise<void>;
}

export interface AttemptLimiterOptions<Limit extends string> {
  /** Most attempts per window, per limit. */
  limits: Record<Limit, number>;
  windowSeconds: number;
  redis?: RedisStore | undefined;
  redisKeyPrefix: string;
}

export function createAttemptLimiter<Limit extends string>(
  options: AttemptLimiterOptions<Limit>,
): AttemptLimiter<Limit> {
  const limiters = new Map<Limit, RateLimiterAbstract>();
  for (const [limit, points] of Object.entries(options.limits) as [Limit, number][]) {
    limiters.set(
      limit,
      createRateLimiter({
        name: `admin-${limit}`,
        points,
        durationSeconds: options.windowSeconds,
        redis: options.redis,
        redisKeyPrefix: options.redisKeyPrefix,
      }),
    );
  }
  const limiterOf = (limit: Limit) => limiters.get(limit)!;
  // Keys hold e-mail and client addresses: stored hashed, so Redis holds neither (and keys stay short).
  const counted = (key: string) => createHash('sha256').update(key).digest('base64url');

  return {
    async consume(attempts) {
      // Every key is counted at once (each count is atomic, in Redis too); when one is over its
      // limit, every count just made is given back, so a refused attempt counts against no key.
      const results = await Promise.allSettled(
        attempts.map(({ limit, key }) => limiterOf(limit).consume(counted(key))),
      );
      const refusal = results.find((result) => result.status === 'rejected');
      if (refusal === undefined) {
        return { allowed: true };
      }
      await Promise.all(
        attempts.map(({ limit, key }, index) =>
          results[index]!.status === 'fulfilled' || results[index]!.reason instanceof RateLimiterRes
            ? limiterOf(limit).reward(counted(key))
            : undefined,
        ),
      );
      const reason: unknown = refusal.reason;
      if (!(reason instanceof RateLimiterRes)) {
        throw reason;
      }
      return { allowed: false, retryAfterSeconds: Math.ceil(reason.msBeforeNext / 1000) };
    },
    async reset({ limit, key }) {
      await limiterOf(limit).delete(counted(key));
    },
    async release({ limit, key }) {
      const current = await limiterOf(limit).get(counted(key));
      // A key whose window has ended has nothing to give back (a reward would go below zero).
      if (current !== null && current.consumedPoints > 0) {
        await limiterOf(limit).reward(counted(key));
      }
    },
  };
}
