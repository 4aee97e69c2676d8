// Refusals per UTC day and error code for the console's statistics. A refusal only adds 1 to a
// number in memory: a flood of 401s must not become a flood of writes, nor wait on the database
// that may be the very reason for its 503. The numbers go to "refusal_counts" in one upsert every
// few seconds and at shutdown. A flush that fails keeps them for the next one; they stay few, one
// per day and code of the error catalogue.
import type { RequestObservation } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import {
  addRefusalCounts,
  deleteOldRefusalCounts,
  lastUtcDays,
  REFUSAL_COUNT_RETENTION_DAYS,
  utcDay,
  type RefusalCountRow,
} from '@intake/shared/statistics';
import { SEND_ROUTE } from '../metrics.js';

export const REFUSAL_FLUSH_INTERVAL_MS = 5000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface RefusalTallyOptions {
  flushIntervalMs?: number;
  now?: () => Date;
}

export interface RefusalTally {
  /** Counts one refusal with this catalogue code, today (UTC). */
  record(code: string): void;
  /** Writes what was counted; on failure keeps it and resolves false. One flush at a time. */
  flush(): Promise<boolean>;
  /** Counts not yet written, by `day code`. */
  pending(): ReadonlyMap<string, number>;
  /** Flushes every interval until stopped (the timer does not keep the process alive). */
  start(): void;
  /** Stops the timer and flushes a last time. */
  stop(): Promise<void>;
}

const keyOf = (day: string, code: string) => `${day} ${code}`;

export function createRefusalTally(
  services: Pick<Services, 'db' | 'logger'>,
  options: RefusalTallyOptions = {},
): RefusalTally {
  const now = options.now ?? (() => new Date());
  let counts = new Map<string, number>();
  let inFlight: Promise<boolean> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;

  function record(code: string): void {
    const key = keyOf(utcDay(now()), code);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  /** Puts unwritten counts back, dropping days the table would no longer keep. */
  function keep(unwritten: Map<string, number>): void {
    const [oldestKept] = lastUtcDays(REFUSAL_COUNT_RETENTION_DAYS, now());
    for (const [key, count] of unwritten) {
      if (key.slice(0, 10) >= oldestKept!) {
        counts.set(key, (counts.get(key) ?? 0) + count);
      }
    }
  }

  async function write(): Promise<boolean> {
    if (counts.size === 0) {
      return true;
    }
    const taken = counts;
    counts = new Map();
    const rows: RefusalCountRow[] = [...taken].map(([key, count]) => {
      const [day, code] = key.split(' ') as [string, string];
      return { day, code, count };
    });
    try {
      await addRefusalCounts(services.db, rows);
    } catch (error) {
      keep(taken);
      // The codes and numbers are not secret; the error is the database's, not the request's.
      services.logger.warn({ err: error, pending: rows.length }, 'refusal counts not written; kept for the next flush');
      return false;
    }
    await pruneNowAndThen();
    return true;
  }

  async function pruneNowAndThen(): Promise<void> {
    if (now().getTime() - lastPrune < PRUNE_INTERVAL_MS) {
      return;
    }
    lastPrune = now().getTime();
    try {
      await deleteOldRefusalCounts(services.db, now());
    } catch (error) {
      services.logger.warn({ err: error }, 'old refusal counts not deleted; trying again in an hour');
    }
  }

  function flush(): Promise<boolean> {
    // A flush already running is followed by one more, which takes what came in meanwhile.
    const next = (inFlight ?? Promise.resolve(true)).then(write, write);
    inFlight = next;
    void next.finally(() => {
      if (inFlight === next) {
        inFlight = undefined;
      }
    });
    return next;
  }

  return {
    record,
    flush,
    pending: () => new Map(counts),
    start() {
      timer ??= setInterval(() => void flush(), options.flushIntervalMs ?? REFUSAL_FLUSH_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      if (!(await flush())) {
        services.logger.warn(
          { pending: counts.size },
          'refusal counts lost at shutdown: the database did not take them',
        );
      }
    },
  };
}

/**
 * The refusals that count: problem answers of the intake route, 4xx and 503. Not a 500 (a fault of
 * ours, not a refusal) and not a 404 for an unknown path (noise of scanners, not of site backends).
 */
export function isCountedRefusal(observation: Pick<RequestObservation, 'route' | 'status' | 'code'>): boolean {
  return observation.route === SEND_ROUTE && observation.code !== undefined && observation.status !== 500;
}
