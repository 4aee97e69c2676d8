// Webhooks of a form and their delivery log. The signing secret is generated on create and rotate,
// shown once and stored sealed. Deleting a webhook deletes its pending deliveries and log with it.
// `redeliver` replays one delivery (webhook or e-mail) with a fresh retry schedule and the same
// `webhook-id`, so a receiver that deduplicates stays correct.
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createWebhook, type WebhookWithSecret } from './create-webhook.js';
import { deleteWebhook } from './delete-webhook.js';
import { emailDeliveries, webhookDeliveries, type LoggedDelivery, withAttempts } from './delivery-log.js';
import { listWebhooks } from './list-webhooks.js';
import { findLiveWebhook } from './live-webhook.js';
import { redeliver } from './redeliver.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { sendTestWebhook } from './send-test-webhook.js';
import { updateWebhook } from './update-webhook.js';
import type { AdminContext } from '../context.js';
import { presentDelivery, presentWebhook } from './presenters.js';
import { CreateWebhookInput, UpdateWebhookInput } from './webhook.input.js';
import { DeliveryStatusEnum, DeliveryType, WebhookType, WebhookWithSecretType } from './webhook.type.js';
import { parseId, parsePageSize } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';

function presentLogged(logged: readonly LoggedDelivery[]): DeliveryType[] {
  return logged.map(({ delivery, attempts }) => presentDelivery(delivery, attempts));
}

function presentWithSecret({ secret, webhook }: WebhookWithSecret): WebhookWithSecretType {
  return { secret, webhook: presentWebhook(webhook) };
}

@Authorized()
@Resolver()
export class WebhookResolver {
  @Query(() => [WebhookType], { description: 'Webhooks of a live form, oldest first.' })
  async webhooks(@Arg('formId', () => ID) formId: string, @Ctx() { em }: AdminContext): Promise<WebhookType[]> {
    return (await listWebhooks(em, parseId(formId, 'formId'))).map(presentWebhook);
  }

  @Query(() => WebhookType, { nullable: true })
  async webhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<WebhookType | null> {
    const webhook = await findLiveWebhook(em, parseId(id, 'id'));
    return webhook === null ? null : presentWebhook(webhook);
  }

  @Mutation(() => WebhookWithSecretType, { description: 'The signing secret is in this answer only.' })
  async createWebhook(
    @InputArg('input', CreateWebhookInput) input: CreateWebhookInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<WebhookWithSecretType> {
    return presentWithSecret(await createWebhook(em, deps.services.config.tokenEncryptionKey, input));
  }

  @Mutation(() => WebhookType)
  async updateWebhook(
    @Arg('id', () => ID) id: string,
    @InputArg('input', UpdateWebhookInput) input: UpdateWebhookInput,
    @Ctx() { em }: AdminContext,
  ): Promise<WebhookType> {
    return presentWebhook(await updateWebhook(em, parseId(id, 'id'), input));
  }

  @Mutation(() => Boolean, {
    description: 'Deletes the webhook, its pending deliveries and its log; false when there was no such webhook.',
  })
  async deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    return deleteWebhook(em, parseId(id, 'id'));
  }

  @Mutation(() => WebhookWithSecretType, {
    description: 'A new signing secret, shown in this answer only; the old one stops signing at once.',
  })
  async rotateWebhookSecret(
    @Arg('id', () => ID) id: string,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<WebhookWithSecretType> {
    const key = deps.services.config.tokenEncryptionKey;
    return presentWithSecret(await rotateWebhookSecret(em, key, parseId(id, 'id')));
  }

  @Mutation(() => DeliveryType, { description: 'Queues a `webhook.test` event for this webhook, due at once.' })
  async sendTestWebhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<DeliveryType> {
    return presentDelivery(await sendTestWebhook(em, parseId(id, 'id')), []);
  }

  @Query(() => [DeliveryType], {
    description: 'Deliveries of a webhook, newest first, with their attempts; `first` 0..100 (default 20).',
  })
  async deliveries(
    @Arg('webhookId', () => ID) webhookId: string,
    @Arg('status', () => DeliveryStatusEnum, { nullable: true }) status: DeliveryStatusEnum | null | undefined,
    @Arg('first', () => Int, { nullable: true }) first: number | null | undefined,
    @Ctx() { em }: AdminContext,
  ): Promise<DeliveryType[]> {
    const id = parseId(webhookId, 'webhookId');
    return presentLogged(await webhookDeliveries(em, id, { status, first: parsePageSize(first, 'first') }));
  }

  @Query(() => [DeliveryType], {
    description: 'Notification e-mail deliveries of a form, newest first, with their attempts; `first` 0..100.',
  })
  async emailDeliveries(
    @Arg('formId', () => ID) formId: string,
    @Arg('status', () => DeliveryStatusEnum, { nullable: true }) status: DeliveryStatusEnum | null | undefined,
    @Arg('first', () => Int, { nullable: true }) first: number | null | undefined,
    @Ctx() { em }: AdminContext,
  ): Promise<DeliveryType[]> {
    const id = parseId(formId, 'formId');
    return presentLogged(await emailDeliveries(em, id, { status, first: parsePageSize(first, 'first') }));
  }

  @Mutation(() => DeliveryType, {
    description: 'Replays a delivery now, with a fresh retry schedule and the same webhook-id.',
  })
  async redeliver(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() { em }: AdminContext): Promise<DeliveryType> {
    const delivery = await redeliver(em, parseId(deliveryId, 'deliveryId'));
    return presentLogged(await withAttempts(em, [delivery]))[0]!;
  }
}
