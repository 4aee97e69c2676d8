import { ID, InputType } from 'type-graphql';
import { z } from 'zod';
import { description } from '@intake/shared/input-fields';
import { webhookUrl } from './delivery-fields.js';
import { id } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';
import { WebhookFormatEnum } from './webhook.type.js';

// WEBHOOK_ALLOW_PRIVATE decides which URLs are acceptable (delivery-fields.ts).

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @InputField(() => ID, id)
  formId!: string;

  @InputField(() => String, (config) => webhookUrl(config.delivery.allowPrivateAddresses), {
    description: 'http:// or https://, no credentials; private addresses are refused.',
  })
  url!: string;

  @InputField(() => String, description, { nullable: true })
  description?: string | null;

  @InputField(() => WebhookFormatEnum, z.enum(WebhookFormatEnum, { error: 'cannot be null' }), {
    nullable: true,
    description: "Left out: STANDARD. A chat format needs that platform's incoming-webhook URL.",
  })
  format?: WebhookFormatEnum;
}

@InputType('UpdateWebhookInput', { description: 'Absent fields stay as they are.' })
export class UpdateWebhookInput {
  @InputField(() => String, (config) => webhookUrl(config.delivery.allowPrivateAddresses, 'cannot be null'), {
    nullable: true,
  })
  url?: string;

  @InputField(() => String, description, { nullable: true, description: 'Null or empty removes it.' })
  description?: string | null;

  @InputField(() => WebhookFormatEnum, z.enum(WebhookFormatEnum, { error: 'cannot be null' }), {
    nullable: true,
  })
  format?: WebhookFormatEnum;

  @InputField(() => Boolean, z.boolean({ error: 'cannot be null' }), {
    nullable: true,
    description: 'True also clears a disable after failures.',
  })
  enabled?: boolean;
}
