// A small in-memory cache of database rows that belong to a site, safe to share between requests
// only while a change feed is live. Each entry is tagged with its site: a change of that site (or of
// one of its forms) drops all of them. Bounded in size (least recently used out first) and in age.
//
// A load that races with a change must not put the old row back: every invalidation bumps a
// generation, and a loaded value is kept only if no invalidation happened since the load began.

import { LRUCache } from 'lru-cache';

export interface SiteScopedCacheOptions {
  maxEntries: number;
  maxAgeMs: number;
  /** The clock ages are measured on (milliseconds); tests set their own. */
  now?: () => number;
}

interface Entry<T> {
  siteId: string;
  value: T;
}

export interface SiteScopedCache<T> {
  /** The cached value, or loads it (and keeps it when it is safe to). `null` is never kept. */
  get(key: string, siteId: string, load: () => Promise<T | null>): Promise<T | null>;
  /** A site or one of its forms changed: forget everything of that site. */
  invalidateSite(siteId: string): void;
  /** Changes are heard from now on: caching may start. */
  setLive(live: boolean): void;
  readonly live: boolean;
  readonly size: number;
}

export function createSiteScopedCache<T>(options: SiteScopedCacheOptions): SiteScopedCache<T> {
  // lru-cache bounds size (least recently used out first) and age; what it cannot know (which site
  // an entry belongs to, and loads racing with changes) is kept here.
  const entries = new LRUCache<string, Entry<T>>({
    max: options.maxEntries,
    ttl: options.maxAgeMs,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  let live = false;
  let generation = 0;

  function forgetAll(): void {
    generation += 1;
    entries.clear();
  }

  return {
    async get(key, siteId, load) {
      if (live) {
        const entry = entries.get(key);
        if (entry !== undefined) {
          return entry.value;
        }
      }
      const startedAt = generation;
      const value = await load();
      if (value !== null && live && generation === startedAt) {
        entries.set(key, { siteId, value });
      }
      return value;
    },
    invalidateSite(siteId) {
      generation += 1;
      for (const [key, entry] of [...entries.entries()]) {
        if (entry.siteId === siteId) {
          entries.delete(key);
        }
      }
    },
    setLive(next) {
      // Either way nothing known so far can be trusted: while blind, changes went unheard.
      forgetAll();
      live = next;
    },
    get live() {
      return live;
    },
    get size() {
      return entries.size;
    },
  };
}
