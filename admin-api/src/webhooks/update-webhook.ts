import type { Em } from '@intake/shared/db';
import type { Webhook } from '@intake/shared/entities';
import type { UpdateWebhookInput } from './webhook.input.js';
import { requireLiveWebhook } from './live-webhook.js';

/** Why a webhook an administrator turned off is off (the worker's own reason says it kept failing). */
export const DISABLED_BY_ADMINISTRATOR = 'disabled by an administrator';

/** A webhook of a live form changed in memory, not yet written (the dry run stops here: setup/validate-setup.ts). */
export async function changeWebhook(
  em: Em,
  webhookId: string,
  { enabled, ...fields }: UpdateWebhookInput,
): Promise<Webhook> {
  const webhook = await requireLiveWebhook(em, webhookId);
  // The input holds only its declared fields (absent ones are not keys), so this copies those;
  // `enabled` is not a copy: it starts or ends a disable.
  em.assign(webhook, fields, { onlyProperties: true });
  if (enabled === true && !webhook.enabled) {
    // A fresh start: the failure history that disabled it no longer counts.
    webhook.enabled = true;
    webhook.disabledAt = null;
    webhook.disabledReason = null;
    webhook.failingSince = null;
  } else if (enabled === false && webhook.enabled) {
    webhook.enabled = false;
    webhook.disabledAt = new Date();
    webhook.disabledReason = DISABLED_BY_ADMINISTRATOR;
  }
  return webhook;
}

/** Changes a webhook of a live form; the input is checked whole first, so a bad field changes nothing. */
export async function updateWebhook(em: Em, webhookId: string, input: UpdateWebhookInput): Promise<Webhook> {
  const webhook = await changeWebhook(em, webhookId, input);
  await em.flush();
  return webhook;
}
