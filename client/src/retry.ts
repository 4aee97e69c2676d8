// When to try a submission again, and how long to wait first. Written here rather than taken from a
// retry library: the client has no runtime dependency (docs/decisions/client-without-dependencies.md),
// and the rule is short: 429, 503 and network failures are retried with exponential backoff and full
// jitter, and a Retry-After the gateway sends is waited for as it says.

export interface RetryOptions {
  /** Requests in all, the first included (default 5). 1 turns retrying off. */
  attempts?: number;
  /** The first backoff, before jitter (default 500 ms); it doubles at each attempt. */
  baseDelayMs?: number;
  /** The longest wait between two attempts (default 30 s). A longer Retry-After ends the retries. */
  maxDelayMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Statuses that say "not now": nothing was stored, and the same request may succeed later. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Seconds to wait from a Retry-After header: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') {
    return undefined;
  }
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    return Number(value);
  }
  // An HTTP date names its day and month; Date.parse would read "-3" as a year.
  const date = /^[A-Za-z]{3}, /.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): Retry-After when given, else backoff. */
export function delayBeforeRetry(
  attempt: number,
  retryAfter: number | undefined,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  if (retryAfter !== undefined) {
    return retryAfter * 1000;
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  // Full jitter: clients that failed together do not all come back at the same moment.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
