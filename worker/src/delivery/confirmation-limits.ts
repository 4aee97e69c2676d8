// The rate limits of confirmations (docs/confirmations.md#rate-limits): at most so many per hour to
// one address, whatever the form, and per form. Each is a row of confirmation_counts for the hour,
// raised by one guarded upsert (`count < limit`), so concurrent workers never send one more than the
// limit; the address is kept only as a hash. A send that failed gives its allowance back.
import type { Em } from '@intake/shared/db';
import { confirmationAddressScope as addressScope } from '@intake/shared/delivery';

export interface ConfirmationLimits {
  perAddress: number;
  perForm: number;
}

/** Which limit refused a confirmation; null: it may be sent. */
export type LimitHit = 'address' | 'form' | null;

const formScope = (formId: string): string => `form:${formId}`;

const TAKE_SQL = `
insert into "confirmation_counts" ("scope", "window_start", "count") values (?, date_trunc('hour', now()), 1)
on conflict ("scope", "window_start") do update set "count" = "confirmation_counts"."count" + 1
 where "confirmation_counts"."count" < ?
returning "count"`;

const GIVE_BACK_SQL = `
update "confirmation_counts" set "count" = "count" - 1
 where "scope" = ? and "window_start" = date_trunc('hour', now()) and "count" > 0`;

async function take(em: Em, scope: string, limit: number): Promise<boolean> {
  const rows = await em.execute<{ count: number }[]>(TAKE_SQL, [scope, limit], 'all');
  return rows.length > 0;
}

async function giveBack(em: Em, scope: string): Promise<void> {
  await em.execute(GIVE_BACK_SQL, [scope], 'run');
}

/** Takes one confirmation of the hour for the address and the form, or neither. */
export async function takeConfirmation(
  em: Em,
  address: string,
  formId: string,
  limits: ConfirmationLimits,
): Promise<LimitHit> {
  // Hours that are over count for nothing: dropped as they pass.
  await em.execute(`delete from "confirmation_counts" where "window_start" < date_trunc('hour', now())`, [], 'run');
  if (!(await take(em, addressScope(address), limits.perAddress))) {
    return 'address';
  }
  if (!(await take(em, formScope(formId), limits.perForm))) {
    await giveBack(em, addressScope(address));
    return 'form';
  }
  return null;
}

/** Gives back what takeConfirmation took, for a confirmation that was not sent after all. */
export async function giveBackConfirmation(em: Em, address: string, formId: string): Promise<void> {
  await giveBack(em, addressScope(address));
  await giveBack(em, formScope(formId));
}
