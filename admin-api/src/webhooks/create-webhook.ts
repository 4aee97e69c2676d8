import type { Em } from '@intake/shared/db';
import { createSecretBox, generateWebhookSecret } from '@intake/shared/delivery';
import { WebhookSchema, type Webhook } from '@intake/shared/entities';
import type { CreateWebhookInput } from './webhook.input.js';
import { requireLiveForm } from '../lib/live-finders.js';

export interface WebhookWithSecret {
  /** The signing secret: in this answer only, stored sealed. */
  secret: string;
  webhook: Webhook;
}

/** A new, enabled webhook of a live form with a fresh signing secret. */
export async function createWebhook(
  em: Em,
  tokenEncryptionKey: Buffer,
  { formId, ...fields }: CreateWebhookInput,
): Promise<WebhookWithSecret> {
  const form = await requireLiveForm(em, formId);
  const secret = generateWebhookSecret();
  const webhook = em.create(WebhookSchema, {
    description: null,
    ...fields,
    form,
    sealedSecret: createSecretBox(tokenEncryptionKey).seal(secret),
    enabled: true,
  });
  await em.flush();
  return { secret, webhook };
}
