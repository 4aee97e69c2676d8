import type { Em } from '@intake/shared/db';
import { WebhookSchema } from '@intake/shared/entities';

/** Deletes the webhook; false when there was no such webhook. */
export async function deleteWebhook(em: Em, webhookId: string): Promise<boolean> {
  // Its deliveries and their attempts go with it (foreign keys on delete cascade).
  return (await em.nativeDelete(WebhookSchema, { id: webhookId })) > 0;
}
