// When retention runs: at start, then every RETENTION_INTERVAL_MS, in the worker's process beside
// the delivery loop but apart from it. Each tick runs retention (spam and form retentions), then
// prunes the audit log and makes a signed checkpoint of its chain (docs/audit-log.md). Ticks of
// one process never overlap (chained), ticks of several processes share the work (SKIP LOCKED),
// and one step failing does not keep the other from running.
import { AuditLogTamperedError, checkpointChainHead } from '@intake/shared/audit';
import type { Services } from '@intake/shared/services';
import { deleteExpiredAuditEntries } from './audit-retention.js';
import { runRetention } from './retention-run.js';

/** How often a worker runs retention, after its run at start. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionScheduleOptions {
  /** Between runs; default RETENTION_INTERVAL_MS (hourly). */
  intervalMs?: number;
}

export interface RetentionSchedule {
  /** Runs retention now, then at the interval, until `close`. */
  start(): void;
  /** Stops the timer and waits for the run under way. */
  close(): Promise<void>;
}

export function createRetentionSchedule(services: Services, options: RetentionScheduleOptions = {}): RetentionSchedule {
  const { logger } = services;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  function runInBackground(): void {
    running = running
      .then(() => runRetention(services))
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error }, 'retention run failed'),
      )
      .then(() => deleteExpiredAuditEntries(services))
      .then(
        (count) => {
          if (count > 0) {
            logger.info({ count }, 'deleted expired audit log entries');
          }
        },
        (error: unknown) => logger.warn({ err: error }, 'could not delete expired audit log entries'),
      )
      .then(() => checkpointChainHead(services.db.em.fork(), services.auditChain))
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof AuditLogTamperedError) {
            const { firstBadSequence } = error.verification;
            logger.error({ firstBadSequence }, 'audit log failed its check: no checkpoint signed');
          } else {
            logger.warn({ err: error }, 'could not checkpoint the audit log');
          }
        },
      );
  }

  return {
    start() {
      if (timer) {
        return;
      }
      runInBackground();
      timer = setInterval(runInBackground, options.intervalMs ?? RETENTION_INTERVAL_MS);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
