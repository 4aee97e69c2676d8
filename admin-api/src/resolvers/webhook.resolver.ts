// Webhooks of a form and their delivery log. The signing secret is generated here, shown once
// (create, rotate) and stored sealed. Deleting a webhook deletes its pending deliveries and log
// with it. `redeliver` replays one delivery (webhook or e-mail) with a fresh retry schedule and
// the same `webhook-id`, so a receiver that deduplicates stays correct.
import {
  createSecretBox,
  DeliveryAttemptSchema,
  DeliverySchema,
  enqueueTestDelivery,
  generateWebhookSecret,
  WebhookSchema,
  webhookTestData,
  type Delivery,
  type DeliveryAttempt,
  type Em,
  type Webhook,
} from '@intake/shared';
import type { FilterQuery } from '@mikro-orm/core';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentDelivery, presentWebhook } from '../presenters/webhook.js';
import { badUserInput, notFound } from '../schema/errors.js';
import { CreateWebhookInput, UpdateWebhookInput } from '../types/webhook.input.js';
import { DeliveryStatusEnum, DeliveryType, WebhookType, WebhookWithSecretType } from '../types/webhook.type.js';
import { parseDescription, parseWebhookUrl } from '../validation/delivery-fields.js';
import { parseId, parsePageSize } from '../validation/fields.js';
import { findLiveForm, requireLiveForm } from './lookup.js';

async function requireWebhook(em: Em, id: string): Promise<Webhook> {
  const webhook = await em.findOne(WebhookSchema, { id });
  // A webhook of a deleted form is as gone as the form.
  if (webhook === null || (await findLiveForm(em, webhook.form.id)) === null) {
    throw notFound('Webhook');
  }
  return webhook;
}

/** Deliveries with their attempts (one query for all attempts). */
async function presentDeliveries(em: Em, deliveries: readonly Delivery[]): Promise<DeliveryType[]> {
  const attempts =
    deliveries.length === 0
      ? []
      : await em.find(
          DeliveryAttemptSchema,
          { delivery: { $in: deliveries.map((delivery) => delivery.id) } },
          { orderBy: { number: 'asc', startedAt: 'asc' } },
        );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery.id) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.delivery.id, list);
  }
  return deliveries.map((delivery) => presentDelivery(delivery, byDelivery.get(delivery.id) ?? []));
}

@Authorized()
@Resolver()
export class WebhookResolver {
  @Query(() => [WebhookType], { description: 'Webhooks of a live form, oldest first.' })
  async webhooks(@Arg('formId', () => ID) formId: string, @Ctx() { em }: AdminContext): Promise<WebhookType[]> {
    const form = await requireLiveForm(em, parseId(formId, 'formId'));
    const webhooks = await em.find(WebhookSchema, { form: form.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return webhooks.map(presentWebhook);
  }

  @Query(() => WebhookType, { nullable: true })
  async webhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<WebhookType | null> {
    const webhook = await em.findOne(WebhookSchema, { id: parseId(id, 'id') });
    return webhook === null || (await findLiveForm(em, webhook.form.id)) === null ? null : presentWebhook(webhook);
  }

  @Mutation(() => WebhookWithSecretType, { description: 'The signing secret is in this answer only.' })
  async createWebhook(
    @Arg('input', () => CreateWebhookInput) input: CreateWebhookInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<WebhookWithSecretType> {
    const { config } = deps.services;
    const formId = parseId(input.formId, 'input.formId');
    const url = parseWebhookUrl(input.url, config.delivery.allowPrivateAddresses, 'input.url');
    const description = parseDescription(input.description, 'input.description');
    const form = await requireLiveForm(em, formId);
    const secret = generateWebhookSecret();
    const webhook = em.create(WebhookSchema, {
      form,
      url,
      description,
      sealedSecret: createSecretBox(config.tokenEncryptionKey).seal(secret),
      enabled: true,
    });
    await em.flush();
    return { secret, webhook: presentWebhook(webhook) };
  }

  @Mutation(() => WebhookType)
  async updateWebhook(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateWebhookInput) input: UpdateWebhookInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<WebhookType> {
    const webhookId = parseId(id, 'id');
    // Validate everything first, so a bad field changes nothing.
    if (input.url === null) {
      throw badUserInput('input.url', 'cannot be null');
    }
    if (input.enabled === null) {
      throw badUserInput('input.enabled', 'cannot be null');
    }
    const url =
      input.url === undefined
        ? undefined
        : parseWebhookUrl(input.url, deps.services.config.delivery.allowPrivateAddresses, 'input.url');
    const description =
      input.description === undefined ? undefined : parseDescription(input.description, 'input.description');

    const webhook = await requireWebhook(em, webhookId);
    if (url !== undefined) {
      webhook.url = url;
    }
    if (description !== undefined) {
      webhook.description = description;
    }
    if (input.enabled === true && !webhook.enabled) {
      // A fresh start: the failure history that disabled it no longer counts.
      webhook.enabled = true;
      webhook.disabledAt = null;
      webhook.disabledReason = null;
      webhook.failingSince = null;
    } else if (input.enabled === false && webhook.enabled) {
      webhook.enabled = false;
      webhook.disabledAt = new Date();
      webhook.disabledReason = 'disabled by an administrator';
    }
    await em.flush();
    return presentWebhook(webhook);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes the webhook, its pending deliveries and its log; false when there was no such webhook.',
  })
  async deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    // Its deliveries and their attempts go with it (foreign keys on delete cascade).
    return (await em.nativeDelete(WebhookSchema, { id: parseId(id, 'id') })) > 0;
  }

  @Mutation(() => WebhookWithSecretType, {
    description: 'A new signing secret, shown in this answer only; the old one stops signing at once.',
  })
  async rotateWebhookSecret(
    @Arg('id', () => ID) id: string,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<WebhookWithSecretType> {
    const webhook = await requireWebhook(em, parseId(id, 'id'));
    const secret = generateWebhookSecret();
    webhook.sealedSecret = createSecretBox(deps.services.config.tokenEncryptionKey).seal(secret);
    await em.flush();
    return { secret, webhook: presentWebhook(webhook) };
  }

  @Mutation(() => DeliveryType, { description: 'Queues a `webhook.test` event for this webhook, due at once.' })
  async sendTestWebhook(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<DeliveryType> {
    const webhook = await requireWebhook(em, parseId(id, 'id'));
    if (!webhook.enabled) {
      throw badUserInput('id', 'is a disabled webhook; enable it first');
    }
    const form = await requireLiveForm(em, webhook.form.id);
    const delivery = enqueueTestDelivery(
      em,
      { id: webhook.id, formId: form.id },
      webhookTestData(webhook.id, form.id, form.site.id),
    );
    await em.flush();
    return presentDelivery(delivery, []);
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
    const webhook = await requireWebhook(em, parseId(webhookId, 'webhookId'));
    const where: FilterQuery<Delivery> = { webhook: webhook.id, ...(status ? { status } : {}) };
    const deliveries = await em.find(DeliverySchema, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: parsePageSize(first, 'first'),
    });
    return presentDeliveries(em, deliveries);
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
    const form = await requireLiveForm(em, parseId(formId, 'formId'));
    const where: FilterQuery<Delivery> = { form: form.id, channel: 'email', ...(status ? { status } : {}) };
    const deliveries = await em.find(DeliverySchema, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: parsePageSize(first, 'first'),
    });
    return presentDeliveries(em, deliveries);
  }

  @Mutation(() => DeliveryType, {
    description: 'Replays a delivery now, with a fresh retry schedule and the same webhook-id.',
  })
  async redeliver(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() { em }: AdminContext): Promise<DeliveryType> {
    const id = parseId(deliveryId, 'deliveryId');
    const delivery = await em.findOne(DeliverySchema, { id }, { populate: ['webhook'] });
    if (delivery === null || (await findLiveForm(em, delivery.form.id)) === null) {
      throw notFound('Delivery');
    }
    if (delivery.webhook && !delivery.webhook.enabled) {
      throw badUserInput('deliveryId', 'belongs to a disabled webhook; enable it first');
    }
    // Not while a worker holds it: the row is free, or its lease has ended.
    const reset = await em.execute<{ id: string }[]>(
      `update "deliveries"
          set "status" = 'pending', "next_attempt_at" = now(), "retry_step" = 0, "completed_at" = null, "updated_at" = now()
        where "id" = ? and ("locked_until" is null or "locked_until" <= now())
        returning "id"`,
      [id],
      'all',
    );
    if (reset.length === 0) {
      throw badUserInput('deliveryId', 'is being delivered right now; try again in a moment');
    }
    const fresh = await em.fork().findOneOrFail(DeliverySchema, { id });
    const [presented] = await presentDeliveries(em, [fresh]);
    return presented!;
  }
}
