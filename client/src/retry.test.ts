import { delayBeforeRetry, RETRY_DEFAULTS, retryAfterSeconds } from './retry.js';

describe('retries', () => {
  it('reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterSeconds('5', now)).toBe(5);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-3', now)).toBeUndefined();
  });

  it('waits what Retry-After says, else backs off exponentially with jitter up to the ceiling', () => {
    expect(delayBeforeRetry(1, 2, RETRY_DEFAULTS)).toBe(2000);
    const low = () => 0;
    const high = () => 1;
    expect(delayBeforeRetry(1, undefined, RETRY_DEFAULTS, low)).toBe(250);
    expect(delayBeforeRetry(1, undefined, RETRY_DEFAULTS, high)).toBe(500);
    expect(delayBeforeRetry(3, undefined, RETRY_DEFAULTS, high)).toBe(2000);
    expect(delayBeforeRetry(20, undefined, RETRY_DEFAULTS, high)).toBe(RETRY_DEFAULTS.maxDelayMs);
  });
});
