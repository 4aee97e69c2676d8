// Each retention run leaves an entry in the audit log: the system as actor, `retention.run`, and
// counts only (per form by id), never a submitted value.
import { recordAuditEntry, systemActor } from '@intake/shared/audit';
import type { AuditChainKey } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import type { FormRetentionResult } from './form-retention.js';

export const RETENTION_RUN_ACTION = 'retention.run';

/** One run of retention-run.ts, as recorded. */
export interface RetentionRun {
  /** Which worker ran it (host and process id). */
  workerId: string;
  startedAt: Date;
  finishedAt: Date;
  spamDeleted: number;
  /** Submissions deleted by form retentions, in total and per form. */
  formRetention: FormRetentionResult;
}

export async function recordRetentionRun(em: Em, chain: AuditChainKey, run: RetentionRun): Promise<void> {
  await recordAuditEntry(em, chain, {
    actor: systemActor('retention'),
    action: RETENTION_RUN_ACTION,
    outcome: 'success',
    at: run.finishedAt,
    details: {
      workerId: run.workerId,
      startedAt: run.startedAt.toISOString(),
      durationMs: run.finishedAt.getTime() - run.startedAt.getTime(),
      spamDeleted: run.spamDeleted,
      submissionsDeleted: run.formRetention.deleted,
      // `<form id>:<count>` for each form that lost submissions in this run.
      forms: run.formRetention.forms.map((form) => `${form.formId}:${form.deleted}`),
    },
  });
}
