// One retention run (retention-schedule.ts times them): expired spam (30 days) and the expired
// submissions of forms with a retention. Each run is logged and recorded with counts only (never a
// submitted value), so an operator can show what was deleted when.
import { hostname } from 'node:os';
import type { Services } from '@intake/shared/services';
import { deleteExpiredSpam, type SpamSweepOptions } from './spam-retention.js';
import { deleteExpiredSubmissions } from './form-retention.js';
import { recordRetentionRun, type RetentionRun } from './record-retention-run.js';

export interface RetentionRunOptions {
  batchSize?: number;
  now?: () => Date;
  spam?: SpamSweepOptions;
}

export const defaultWorkerId = (): string => `${hostname()}:${process.pid}`;

/** Runs both sweeps, then logs and records the run; resolves with it. */
export async function runRetention(
  services: Pick<Services, 'db' | 'storage' | 'logger' | 'auditChain'>,
  options: RetentionRunOptions & { workerId?: string } = {},
): Promise<RetentionRun> {
  const startedAt = new Date();
  const spamDeleted = await deleteExpiredSpam(services, {
    batchSize: options.batchSize,
    now: options.now,
    ...options.spam,
  });
  const formRetention = await deleteExpiredSubmissions(services, { batchSize: options.batchSize, now: options.now });
  const run: RetentionRun = {
    workerId: options.workerId ?? defaultWorkerId(),
    startedAt,
    finishedAt: new Date(),
    spamDeleted,
    formRetention,
  };
  services.logger.info(
    {
      spamDeleted,
      submissionsDeleted: formRetention.deleted,
      forms: formRetention.forms.length,
      durationMs: run.finishedAt.getTime() - startedAt.getTime(),
    },
    'retention run',
  );
  await recordRetentionRun(services.db.em.fork(), services.auditChain, run);
  return run;
}
