import type { Em } from '@intake/shared/db';
import { createSecretBox, generateWebhookSecret } from '@intake/shared/delivery';
import type { WebhookWithSecret } from './create-webhook.js';
import { requireLiveWebhook } from './live-webhook.js';

/** A new signing secret; the old one stops signing at once. */
export async function rotateWebhookSecret(
  em: Em,
  tokenEncryptionKey: Buffer,
  webhookId: string,
): Promise<WebhookWithSecret> {
  const webhook = await requireLiveWebhook(em, webhookId);
  const secret = generateWebhookSecret();
  webhook.sealedSecret = createSecretBox(tokenEncryptionKey).seal(secret);
  await em.flush();
  return { secret, webhook };
}
