import type { Em } from '@intake/shared/db';
import { WebhookSchema, type Webhook } from '@intake/shared/entities';
import { notFound } from '../errors.js';
import { findLiveForm } from '../lib/live-finders.js';

/** A webhook of a live form; a webhook of a deleted form is as gone as the form. */
export async function findLiveWebhook(em: Em, id: string): Promise<Webhook | null> {
  const webhook = await em.findOne(WebhookSchema, { id });
  return webhook === null || (await findLiveForm(em, webhook.form.id)) === null ? null : webhook;
}

export async function requireLiveWebhook(em: Em, id: string): Promise<Webhook> {
  const webhook = await findLiveWebhook(em, id);
  if (webhook === null) {
    throw notFound('Webhook');
  }
  return webhook;
}
