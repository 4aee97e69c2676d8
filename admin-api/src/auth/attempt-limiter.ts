// Fixed-window attempt counters in memory, for login brute-force protection. An attempt is counted
// when it starts (not when it fails), so parallel guesses cannot slip past the limit while the
// password hashes run; a success resets the key. Per process: with several admin processes each
// has its own counters, which still bounds guessing to a small multiple.

export interface AttemptLimit {
  key: string;
  max: number;
}

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface AttemptLimiter {
  /** Counts one attempt against every key, or refuses (counting nothing) when one is at its limit. */
  consume(limits: readonly AttemptLimit[], now?: number): AttemptDecision;
  /** Forgets every attempt of a key (after a success). */
  reset(key: string): void;
  /** Gives one attempt back (a success that must not count against a shared key). */
  release(key: string): void;
}

interface Window {
  count: number;
  endsAt: number;
}

export function createAttemptLimiter(options: { windowMs: number; maxKeys?: number }): AttemptLimiter {
  const windows = new Map<string, Window>();
  const maxKeys = options.maxKeys ?? 100_000;

  function prune(now: number): void {
    for (const [key, window] of windows) {
      if (window.endsAt <= now) {
        windows.delete(key);
      }
    }
  }

  function current(key: string, now: number): Window | undefined {
    const window = windows.get(key);
    return window !== undefined && window.endsAt > now ? window : undefined;
  }

  return {
    consume(limits, now = Date.now()) {
      for (const { key, max } of limits) {
        const window = current(key, now);
        if (window !== undefined && window.count >= max) {
          return { allowed: false, retryAfterSeconds: Math.ceil((window.endsAt - now) / 1000) };
        }
      }
      if (windows.size >= maxKeys) {
        prune(now);
      }
      for (const { key } of limits) {
        const window = current(key, now);
        if (window === undefined) {
          windows.set(key, { count: 1, endsAt: now + options.windowMs });
        } else {
          window.count += 1;
        }
      }
      return { allowed: true };
    },
    reset(key) {
      windows.delete(key);
    },
    release(key) {
      const window = windows.get(key);
      if (window !== undefined && window.count > 0) {
        window.count -= 1;
      }
    },
  };
}
