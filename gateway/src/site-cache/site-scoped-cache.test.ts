import { jest } from '@jest/globals';
import { createSiteScopedCache } from './site-scoped-cache.js';

function counter<T>(value: T | null) {
  const load = jest.fn(async () => value);
  return load;
}

describe('site-scoped cache', () => {
  it('loads every time while not live, and keeps values once live', async () => {
    const cache = createSiteScopedCache<string>({ maxEntries: 10, maxAgeMs: 60_000 });
    const load = counter('row');
    await cache.get('a', 's1', load);
    await cache.get('a', 's1', load);
    expect(load).toHaveBeenCalledTimes(2);
    cache.setLive(true);
    expect(await cache.get('a', 's1', load)).toBe('row');
    expect(await cache.get('a', 's1', load)).toBe('row');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('never keeps a miss', async () => {
    const cache = createSiteScopedCache<string>({ maxEntries: 10, maxAgeMs: 60_000 });
    cache.setLive(true);
    const load = counter<string>(null);
    await cache.get('a', 's1', load);
    await cache.get('a', 's1', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops every entry of a changed site and only those', async () => {
    const cache = createSiteScopedCache<string>({ maxEntries: 10, maxAgeMs: 60_000 });
    cache.setLive(true);
    await cache.get('site', 's1', counter('site 1'));
    await cache.get('s1/form', 's1', counter('form 1'));
    await cache.get('s2/form', 's2', counter('form 2'));
    cache.invalidateSite('s1');
    expect(cache.size).toBe(1);
    expect(await cache.get('s1/form', 's1', counter('form 1 changed'))).toBe('form 1 changed');
    expect(await cache.get('s2/form', 's2', counter('not loaded'))).toBe('form 2');
  });

  it('does not keep a value loaded while a change of its site arrived (it may be the old row)', async () => {
    const cache = createSiteScopedCache<string>({ maxEntries: 10, maxAgeMs: 60_000 });
    cache.setLive(true);
    let finish!: (value: string) => void;
    const slow = cache.get('a', 's1', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.invalidateSite('s1');
    finish('old row');
    expect(await slow).toBe('old row');
    expect(cache.size).toBe(0);
  });

  it('forgets everything when the feed goes blind, and keeps nothing loaded across the gap', async () => {
    const cache = createSiteScopedCache<string>({ maxEntries: 10, maxAgeMs: 60_000 });
    cache.setLive(true);
    await cache.get('a', 's1', counter('row'));
    let finish!: (value: string) => void;
    const slow = cache.get('b', 's2', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.setLive(false);
    expect(cache.size).toBe(0);
    cache.setLive(true);
    finish('loaded while blind');
    await slow;
    expect(cache.size).toBe(0);
  });

  it('is bounded in size, least recently used out first, and in age', async () => {
    // lru-cache takes a clock reading of 0 for "no time recorded": start later.
    let now = 1;
    const cache = createSiteScopedCache<string>({ maxEntries: 2, maxAgeMs: 1000, now: () => now });
    cache.setLive(true);
    await cache.get('a', 's', counter('a'));
    await cache.get('b', 's', counter('b'));
    await cache.get('c', 's', counter('c'));
    expect(cache.size).toBe(2);
    const reloadA = counter('a again');
    expect(await cache.get('a', 's', reloadA)).toBe('a again');
    now = 1002;
    const reloadC = counter('c again');
    expect(await cache.get('c', 's', reloadC)).toBe('c again');
    expect(reloadC).toHaveBeenCalledTimes(1);
  });
});
