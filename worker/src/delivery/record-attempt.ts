// After an attempt: the attempt joins the delivery log, and the delivery is either done
// (succeeded, or failed for good) or scheduled for its next try, all in one transaction. The
// updates hold only while the claim's token is still the row's, so a worker whose lease ran out
// cannot undo what the worker after it did. A webhook's health is kept beside it: the first
// failure after a success starts `failing_since`, and a webhook failing for longer than
// `disableAfterMs` is disabled.
import { DeliveryAttemptSchema, DeliverySchema } from '@intake/shared/entities';
import type { Em } from '@intake/shared/db';
import type { AttemptOutcome } from './attempt-outcome.js';

export interface AttemptRecord {
  deliveryId: string;
  lockToken: string;
  webhookId: string | null;
  attemptNumber: number;
  startedAt: Date;
  outcome: AttemptOutcome;
  /** Wait before the next attempt; null: no retry left (or none makes sense), the delivery failed. */
  retryDelayMs: number | null;
  disableAfterMs: number;
  /** Clear the payload once the delivery is done (an invitation's sealed link). */
  wipePayloadWhenDone?: boolean;
}

export interface RecordResult {
  /** False when the lease had been lost or the delivery deleted: the row was not changed. */
  updated: boolean;
  webhookDisabled: boolean;
  /** The delivery was deleted during the attempt (its submission erased or deleted, its webhook deleted). */
  deleted: boolean;
}

export async function recordAttempt(em: Em, record: AttemptRecord): Promise<RecordResult> {
  return em.transactional(async (tx) => {
    // A delivery deleted while it was attempted leaves nothing to record (its attempt row would break
    // the foreign key). The row lock keeps a deletion from slipping in before this commits.
    const present = await tx.execute(
      `select "id" from "deliveries" where "id" = ? for update`,
      [record.deliveryId],
      'all',
    );
    if (present.length === 0) {
      return { updated: false, webhookDisabled: false, deleted: true };
    }
    const { outcome } = record;
    tx.create(DeliveryAttemptSchema, {
      delivery: tx.getReference(DeliverySchema, record.deliveryId),
      number: record.attemptNumber,
      startedAt: record.startedAt,
      durationMs: outcome.durationMs,
      succeeded: outcome.succeeded,
      statusCode: outcome.statusCode,
      error: outcome.error?.slice(0, 300) ?? null,
      response: outcome.response,
    });
    await tx.flush();

    const owned = `where "id" = ? and "lock_token" = ?`;
    const unlock = `"locked_until" = null, "lock_token" = null, "updated_at" = now()`;
    const done = record.wipePayloadWhenDone ? `"payload" = null, ${unlock}` : unlock;
    let changed: unknown[];
    if (outcome.succeeded) {
      changed = await tx.execute(
        `update "deliveries" set "status" = 'succeeded', "completed_at" = now(), ${done} ${owned} returning "id"`,
        [record.deliveryId, record.lockToken],
        'all',
      );
    } else if (record.retryDelayMs === null) {
      changed = await tx.execute(
        `update "deliveries" set "status" = 'failed', "completed_at" = now(), "retry_step" = "retry_step" + 1, ${done} ${owned} returning "id"`,
        [record.deliveryId, record.lockToken],
        'all',
      );
    } else {
      changed = await tx.execute(
        `update "deliveries" set "next_attempt_at" = now() + make_interval(secs => ?), "retry_step" = "retry_step" + 1, ${unlock} ${owned} returning "id"`,
        [record.retryDelayMs / 1000, record.deliveryId, record.lockToken],
        'all',
      );
    }

    let webhookDisabled = false;
    if (record.webhookId !== null) {
      if (outcome.succeeded) {
        await tx.execute(
          `update "webhooks" set "failing_since" = null, "last_success_at" = now(), "updated_at" = now() where "id" = ?`,
          [record.webhookId],
          'run',
        );
      } else {
        await tx.execute(
          `update "webhooks" set "failing_since" = coalesce("failing_since", now()), "updated_at" = now() where "id" = ?`,
          [record.webhookId],
          'run',
        );
        const disabled = await tx.execute<{ id: string }[]>(
          `update "webhooks" set "enabled" = false, "disabled_at" = now(), "disabled_reason" = ?, "updated_at" = now()
            where "id" = ? and "enabled" and "failing_since" <= now() - make_interval(secs => ?) returning "id"`,
          [
            `every delivery failed for more than ${Math.round(record.disableAfterMs / 3_600_000)} hours`,
            record.webhookId,
            record.disableAfterMs / 1000,
          ],
          'all',
        );
        webhookDisabled = disabled.length > 0;
      }
    }
    return { updated: changed.length > 0, webhookDisabled, deleted: false };
  });
}
