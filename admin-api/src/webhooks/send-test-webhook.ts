import type { Em } from '@intake/shared/db';
import { enqueueTestDelivery, webhookTestData } from '@intake/shared/delivery';
import type { Delivery } from '@intake/shared/entities';
import { badUserInput } from '../errors.js';
import { requireLiveForm } from '../lib/live-finders.js';
import { requireLiveWebhook } from './live-webhook.js';

/** Queues a `webhook.test` event for an enabled webhook, due at once. */
export async function sendTestWebhook(em: Em, webhookId: string): Promise<Delivery> {
  const webhook = await requireLiveWebhook(em, webhookId);
  if (!webhook.enabled) {
    throw badUserInput('id', 'is a disabled webhook; enable it first');
  }
  const form = await requireLiveForm(em, webhook.form.id);
  const delivery = enqueueTestDelivery(
    em,
    { id: webhook.id, formId: form.id },
    webhookTestData(webhook.id, form.id, form.site.id),
  );
  await em.flush();
  return delivery;
}
