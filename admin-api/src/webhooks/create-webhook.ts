import type { Em } from '@intake/shared/db';
import { createSecretBox, generateWebhookSecret } from '@intake/shared/delivery';
import { WebhookSchema, type Form, type Webhook } from '@intake/shared/entities';
import type { CreateWebhookInput } from './webhook.input.js';
import { requireLiveForm } from '../lib/live-finders.js';

export interface WebhookWithSecret {
  /** The signing secret: in this answer only, stored sealed. */
  secret: string;
  webhook: Webhook;
}

/** A new webhook of `form`, not yet written (the dry run stops here: setup/validate-setup.ts). */
export function buildWebhook(
  em: Em,
  tokenEncryptionKey: Buffer,
  form: Form,
  fields: Omit<CreateWebhookInput, 'formId'>,
): WebhookWithSecret {
  const secret = generateWebhookSecret();
  const webhook = em.create(WebhookSchema, {
    description: null,
    ...fields,
    form,
    sealedSecret: createSecretBox(tokenEncryptionKey).seal(secret),
    enabled: true,
  });
  return { secret, webhook };
}

/** A new, enabled webhook of a live form with a fresh signing secret. */
export async function createWebhook(
  em: Em,
  tokenEncryptionKey: Buffer,
  { formId, ...fields }: CreateWebhookInput,
): Promise<WebhookWithSecret> {
  const made = buildWebhook(em, tokenEncryptionKey, await requireLiveForm(em, formId), fields);
  await em.flush();
  return made;
}
