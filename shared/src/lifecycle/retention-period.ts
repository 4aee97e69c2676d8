// A form's retention period (`retentionDays`): the bounds the admin API accepts and the date a
// submission expires. The worker deletes what has expired (worker/src/retention/form-retention.ts).
export { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '@intake/contract';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which a form's submissions have expired. */
export function retentionCutoff(retentionDays: number, now: Date): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** When a submission created at `createdAt` is deleted under `retentionDays`. */
export function retentionDeletionDate(createdAt: Date, retentionDays: number): Date {
  return new Date(createdAt.getTime() + retentionDays * DAY_MS);
}
