// Claiming due deliveries. `FOR UPDATE SKIP LOCKED` lets several workers claim at once without
// waiting on each other or taking the same row; the claim is a lease (`locked_until`) with a
// token, so a worker that dies mid-delivery loses the row when the lease ends and another worker
// takes it, while a late answer from the dead claim can no longer change the row. The database's
// clock decides what is due, so workers on machines with skewed clocks agree.
import { randomUUID } from 'node:crypto';
import type { Em } from '@intake/shared/db';

export interface Claim {
  lockToken: string;
  deliveryIds: string[];
}

const CLAIM_SQL = `
update "deliveries"
   set "locked_until" = now() + make_interval(secs => ?),
       "lock_token" = ?,
       "attempt_count" = "attempt_count" + 1,
       "last_attempt_at" = now(),
       "updated_at" = now()
 where "id" in (
   select "id" from "deliveries"
    where "status" = 'pending'
      and "next_attempt_at" <= now()
      and ("locked_until" is null or "locked_until" <= now())
    order by "next_attempt_at", "id"
    limit ?
    for update skip locked)
returning "id"`;

/** Claims up to `limit` due deliveries for `leaseMs`; each claim counts as an attempt. */
export async function claimDueDeliveries(em: Em, limit: number, leaseMs: number): Promise<Claim> {
  const lockToken = randomUUID();
  const rows = await em.execute<{ id: string }[]>(CLAIM_SQL, [leaseMs / 1000, lockToken, limit], 'all');
  return { lockToken, deliveryIds: rows.map((row) => row.id) };
}
