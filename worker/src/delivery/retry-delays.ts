// When a failed delivery is tried again: a fixed, roughly exponential schedule over about a day
// (documented in docs/webhooks.md), each wait stretched or shrunk at random by up to 20 % so that many
// deliveries failing together do not retry together.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits after the 1st, 2nd, … failed attempt; after the last one the delivery is failed. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  10 * SECOND,
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
];

export const RETRY_JITTER = 0.2;

/**
 * The wait before the next attempt after `failedSoFar` failures in this run (1 after the first
 * failure), or null when the schedule is used up.
 */
export function retryDelayMs(
  schedule: readonly number[],
  failedSoFar: number,
  random: () => number = Math.random,
): number | null {
  const base = schedule[failedSoFar - 1];
  if (base === undefined) {
    return null;
  }
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
