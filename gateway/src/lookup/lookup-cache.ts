// A small in-memory cache of database rows that belong to a site, safe to share between requests
// only while a change feed is live. Each entry is tagged with its site: a change of that site (or of
// one of its forms) drops all of them. Bounded in size (oldest out first) and in age.
//
// A load that races with a change must not put the old row back: every invalidation bumps a
// generation, and a loaded value is kept only if no invalidation happened since the load began.

export interface LookupCacheOptions {
  maxEntries: number;
  maxAgeMs: number;
  now?: () => number;
}

interface Entry<T> {
  siteId: string;
  value: T;
  storedAt: number;
}

export interface LookupCache<T> {
  /** The cached value, or loads it (and keeps it when it is safe to). `null` is never kept. */
  get(key: string, siteId: string, load: () => Promise<T | null>): Promise<T | null>;
  /** A site or one of its forms changed: forget everything of that site. */
  invalidateSite(siteId: string): void;
  /** Changes are heard from now on: caching may start. */
  setLive(live: boolean): void;
  readonly live: boolean;
  readonly size: number;
}

export function createLookupCache<T>(options: LookupCacheOptions): LookupCache<T> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
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
          if (now() - entry.storedAt <= options.maxAgeMs) {
            return entry.value;
          }
          entries.delete(key);
        }
      }
      const startedAt = generation;
      const value = await load();
      if (value !== null && live && generation === startedAt) {
        if (entries.size >= options.maxEntries) {
          // Maps iterate in insertion order: the first key is the oldest entry.
          entries.delete(entries.keys().next().value!);
        }
        entries.set(key, { siteId, value, storedAt: now() });
      }
      return value;
    },
    invalidateSite(siteId) {
      generation += 1;
      for (const [key, entry] of entries) {
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
