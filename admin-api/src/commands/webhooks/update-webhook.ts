import type { Em } from '@intake/shared/db';
import type { Webhook } from '@intake/shared/entities';
import { z } from 'zod';
import { description, webhookUrl } from '../../validation/delivery-fields.js';
import { requireLiveWebhook } from '../../queries/webhooks/live-webhook.js';

/** Absent fields stay as they are. */
export function updateWebhookInput(allowPrivateAddresses: boolean) {
  return z.object({
    url: webhookUrl(allowPrivateAddresses, 'cannot be null').optional(),
    enabled: z.boolean({ error: 'cannot be null' }).optional(),
    description: description.optional(),
  });
}

/** Changes a webhook of a live form; the input is checked whole first, so a bad field changes nothing. */
export async function updateWebhook(
  em: Em,
  webhookId: string,
  input: z.output<ReturnType<typeof updateWebhookInput>>,
): Promise<Webhook> {
  const webhook = await requireLiveWebhook(em, webhookId);
  if (input.url !== undefined) {
    webhook.url = input.url;
  }
  if (input.description !== undefined) {
    webhook.description = input.description;
  }
  if (input.enabled === true && !webhook.enabled) {
    // A fresh start: the failure history that disabled it no longer counts.
    webhook.enabled = true;
    webhook.disabledAt = null;
    webhook.disabledReason = null;
    webhook.failingSince = null;
  } else if (input.enabled === false && webhook.enabled) {
    webhook.enabled = false;
    webhook.disabledAt = new Date();
    webhook.disabledReason = 'disabled by an administrator';
  }
  await em.flush();
  return webhook;
}
