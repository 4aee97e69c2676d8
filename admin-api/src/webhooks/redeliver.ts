import type { Em } from '@intake/shared/db';
import { DeliverySchema, type Delivery } from '@intake/shared/entities';
import { badUserInput, notFound } from '../errors.js';
import { findLiveForm } from '../lib/live-finders.js';

/** Replays a delivery now, with a fresh retry schedule and the same webhook-id; answers it reloaded. */
export async function redeliver(em: Em, deliveryId: string): Promise<Delivery> {
  const delivery = await em.findOne(DeliverySchema, { id: deliveryId }, { populate: ['webhook'] });
  if (!delivery?.form || (await findLiveForm(em, delivery.form.id)) === null) {
    throw notFound('Delivery');
  }
  if (delivery.webhook && !delivery.webhook.enabled) {
    throw badUserInput('deliveryId', 'belongs to a disabled webhook; enable it first');
  }
  // Not while a worker holds it: the row is free, or its lease has ended.
  const reset = await em.execute<{ id: string }[]>(
    `update "deliveries"
        set "status" = 'pending', "next_attempt_at" = now(), "retry_step" = 0, "completed_at" = null, "updated_at" = now()
      where "id" = ? and ("locked_until" is null or "locked_until" <= now())
      returning "id"`,
    [deliveryId],
    'all',
  );
  if (reset.length === 0) {
    throw badUserInput('deliveryId', 'is being delivered right now; try again in a moment');
  }
  return em.fork().findOneOrFail(DeliverySchema, { id: deliveryId });
}
