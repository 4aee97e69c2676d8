// The cap of a form, claimed in the submission's transaction (docs/submissions.md#caps-and-a-schedule).
// Each count is a row of form_submission_counts: made on first use with the submissions the form
// already holds, then raised by a guarded UPDATE (`count < cap`). The UPDATE locks the row until
// the transaction ends, so a concurrent writer waits, reads the raised count and is refused at the
// cap: exact across processes on PostgreSQL. PGlite's one connection does not keep concurrent
// transactions apart, so the caller also runs a form's capped writes one at a time in the process.
import { createHash } from 'node:crypto';
import type { Em } from '@intake/shared/db';
import type { AppError } from '@intake/shared/errors';
import { fullForAddressRefusal, fullRefusal, scheduleRefusal, type FormLimits } from './form-limits.js';

/** The row counting the form's submissions as a whole. */
const FORM_SCOPE = 'form';

interface LimitsRow {
  max_submissions: number | null;
  max_submissions_per_address: number | null;
  cap_address_field: string | null;
  opens_at: Date | string | null;
  closes_at: Date | string | null;
}

/** A submission about to be written in a transaction: what its cap needs to know. */
export interface CapacityClaim {
  formId: string;
  data: Record<string, unknown>;
  createdAt: Date;
  /** Spam is refused by a full or closed form like any submission, but does not count. */
  spam: boolean;
}

/**
 * Within `tx`: the form's cap and schedule as committed, checked for this submission, and its
 * counts raised when it counts. Null when it may be written; else the `form_closed` refusal (the
 * caller rolls back, so no count is raised for a refused submission).
 */
export async function claimCapacity(tx: Em, claim: CapacityClaim): Promise<AppError | null> {
  const [limits] = await tx.execute<LimitsRow[]>(
    `select "max_submissions", "max_submissions_per_address", "cap_address_field", "opens_at", "closes_at"
     from "forms" where "id" = ?`,
    [claim.formId],
  );
  if (!limits) {
    return null;
  }
  const schedule = scheduleRefusal(asLimits(limits), claim.createdAt);
  if (schedule !== null) {
    return schedule;
  }
  // The address first, then the form: every writer locks the rows in this order, so none deadlock.
  const address = addressOf(limits, claim.data);
  if (limits.max_submissions_per_address !== null && address !== null) {
    const scope = addressScope(claim.formId, address);
    const counted = `lower(btrim(s."data"->>?)) = ?`;
    await ensureCount(tx, claim.formId, scope, counted, [limits.cap_address_field, address]);
    if (!(await take(tx, claim, scope, limits.max_submissions_per_address))) {
      return fullForAddressRefusal();
    }
  }
  if (limits.max_submissions !== null) {
    await ensureCount(tx, claim.formId, FORM_SCOPE, 'true', []);
    if (!(await take(tx, claim, FORM_SCOPE, limits.max_submissions))) {
      return fullRefusal();
    }
  }
  return null;
}

function asLimits(row: LimitsRow): Partial<FormLimits> {
  return {
    opensAt: row.opens_at === null ? null : new Date(row.opens_at),
    closesAt: row.closes_at === null ? null : new Date(row.closes_at),
  };
}

/** The sender's address, trimmed and lower-cased; null when the form counts none or none was sent. */
function addressOf(limits: LimitsRow, data: Record<string, unknown>): string | null {
  const field = limits.cap_address_field;
  const value = field === null ? undefined : data[field];
  if (typeof value !== 'string' || value.trim() === '') {
    return null;
  }
  return value.trim().toLowerCase();
}

/**
 * Whether the form's whole count has reached its cap, as last committed: checked before the body is
 * read, so a full form does not take in the uploads it will refuse. The write checks it exactly.
 */
export async function isFull(em: Em, formId: string, maxSubmissions: number): Promise<boolean> {
  const rows = await em.execute<unknown[]>(
    `select 1 from "form_submission_counts" where "form_id" = ? and "scope" = ? and "count" >= ?`,
    [formId, FORM_SCOPE, maxSubmissions],
  );
  return rows.length > 0;
}

/** The row of one address: a hash, never the address itself (erasure computes it too, in SQL). */
function addressScope(formId: string, address: string): string {
  return createHash('sha256').update(`${formId}:${address}`).digest('hex');
}

/**
 * Makes the count's row when it is missing, starting from the form's stored submissions (spam
 * aside) that `counted` selects. A concurrent maker of the same row wins; this one then does nothing.
 */
async function ensureCount(tx: Em, formId: string, scope: string, counted: string, params: unknown[]): Promise<void> {
  await tx.execute(
    `insert into "form_submission_counts" ("form_id", "scope", "count")
     select ?, ?, count(*)::int from "submissions" s where s."form_id" = ? and not s."spam" and ${counted}
     on conflict do nothing`,
    [formId, scope, formId, ...params],
    'run',
  );
}

/** Raises the count below the cap (spam: only looks). False when the cap is reached. */
async function take(tx: Em, claim: CapacityClaim, scope: string, cap: number): Promise<boolean> {
  const rows = claim.spam
    ? await tx.execute<unknown[]>(
        `select 1 from "form_submission_counts" where "form_id" = ? and "scope" = ? and "count" < ?`,
        [claim.formId, scope, cap],
      )
    : await tx.execute<unknown[]>(
        `update "form_submission_counts" set "count" = "count" + 1
         where "form_id" = ? and "scope" = ? and "count" < ? returning "count"`,
        [claim.formId, scope, cap],
      );
  return rows.length > 0;
}
