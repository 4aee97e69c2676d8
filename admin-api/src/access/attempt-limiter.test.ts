// The login attempt limiter in memory, without a database or a server.
import { createAttemptLimiter } from './attempt-limiter.js';

describe('attempt limiter', () => {
  const limiter = () =>
    createAttemptLimiter({ limits: { a: 2, b: 5, c: 1 }, windowSeconds: 1, redisKeyPrefix: 'unused' });

  it('counts attempts per window, refuses at the limit and resets', async () => {
    const attempts = limiter();
    const a = [{ limit: 'a', key: 'k' }] as const;
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Another key of the same limit has its own count.
    expect(await attempts.consume([{ limit: 'a', key: 'other' }])).toEqual({ allowed: true });
    await attempts.reset(a[0]);
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    await attempts.release(a[0]);
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    // A refused attempt counts against no key.
    expect(await attempts.consume([{ limit: 'b', key: 'k' }, ...a])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await attempts.consume([{ limit: 'c', key: 'k' }])).toEqual({ allowed: true });
    expect(await attempts.consume([{ limit: 'b', key: 'k' }])).toEqual({ allowed: true });
  });

  it('starts a fresh count when the window ends, and gives back nothing past it', async () => {
    const attempts = limiter();
    const c = { limit: 'c', key: 'k' } as const;
    expect(await attempts.consume([c])).toEqual({ allowed: true });
    expect(await attempts.consume([c])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Releasing an ended window must not leave a credit behind.
    await attempts.release(c);
    expect(await attempts.consume([c])).toEqual({ allowed: true });
    expect(await attempts.consume([c])).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
