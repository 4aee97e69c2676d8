import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { FormSchema } from './form.js';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

/**
 * What a webhook's requests hold: `standard`, the signed Standard Webhooks event with the whole
 * submission; or a chat platform's own message (the form, its first fields, a console link), for an
 * incoming-webhook URL of that platform (docs/webhooks.md#chat-notifications).
 */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'mattermost', 'teams', 'discord', 'google_chat'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

// An HTTP endpoint that receives a form's submissions, signed the Standard Webhooks way. The
// signing secret is stored sealed (AES-256-GCM under a key derived from TOKEN_ENCRYPTION_KEY) and
// shown in clear only when it is made. `failingSince` is the first failure after the last success:
// a webhook that keeps failing for days is disabled by the delivery worker.
export const WebhookSchema = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: idProperty(),
    form: () => p.manyToOne(FormSchema).deleteRule('cascade').index(),
    url: p.string().length(2048),
    description: p.string().length(500).nullable(),
    format: p.enum(WEBHOOK_FORMATS).columnType('varchar(16)').default('standard'),
    sealedSecret: p.string().length(255),
    enabled: p.boolean().default(true),
    disabledAt: p.datetime().nullable(),
    disabledReason: p.string().length(200).nullable(),
    failingSince: p.datetime().nullable(),
    lastSuccessAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export type Webhook = InferEntity<typeof WebhookSchema>;
