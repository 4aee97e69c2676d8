import type { Em } from '@intake/shared/db';
import { createSecretBox, generateWebhookSecret } from '@intake/shared/delivery';
import { WebhookSchema, type Webhook } from '@intake/shared/entities';
import { z } from 'zod';
import { description, webhookUrl } from '../../validation/delivery-fields.js';
import { id } from '../../validation/fields.js';
import { requireLiveForm } from '../../queries/live-finders.js';

/** ALLOW_PRIVATE_WEBHOOK_ADDRESSES decides which URLs are acceptable. */
export function createWebhookInput(allowPrivateAddresses: boolean) {
  return z.object({ formId: id, url: webhookUrl(allowPrivateAddresses), description: description.optional() });
}

export interface WebhookWithSecret {
  /** The signing secret: in this answer only, stored sealed. */
  secret: string;
  webhook: Webhook;
}

/** A new, enabled webhook of a live form with a fresh signing secret. */
export async function createWebhook(
  em: Em,
  tokenEncryptionKey: Buffer,
  input: z.output<ReturnType<typeof createWebhookInput>>,
): Promise<WebhookWithSecret> {
  const form = await requireLiveForm(em, input.formId);
  const secret = generateWebhookSecret();
  const webhook = em.create(WebhookSchema, {
    form,
    url: input.url,
    description: input.description ?? null,
    sealedSecret: createSecretBox(tokenEncryptionKey).seal(secret),
    enabled: true,
  });
  await em.flush();
  return { secret, webhook };
}
