import type { Em } from '@intake/shared/db';
import { WebhookSchema, type Webhook } from '@intake/shared/entities';
import { requireLiveForm } from '../lib/live-finders.js';

/** Webhooks of a live form (NOT_FOUND otherwise), oldest first. */
export async function listWebhooks(em: Em, formId: string): Promise<Webhook[]> {
  const form = await requireLiveForm(em, formId);
  return em.find(WebhookSchema, { form: form.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
