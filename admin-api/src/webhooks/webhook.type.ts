import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum DeliveryStatusEnum {
  PENDING = 'pending',
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
}

registerEnumType(DeliveryStatusEnum, {
  name: 'DeliveryStatus',
  description: 'Where a delivery stands.',
  valuesConfig: {
    PENDING: { description: 'Waiting for its first or next attempt, or under way.' },
    SUCCEEDED: { description: 'An attempt succeeded.' },
    FAILED: { description: 'No retry left.' },
  },
});

// The values of WEBHOOK_FORMATS (@intake/shared/entities).
export enum WebhookFormatEnum {
  STANDARD = 'standard',
  SLACK = 'slack',
  MATTERMOST = 'mattermost',
  TEAMS = 'teams',
  DISCORD = 'discord',
  GOOGLE_CHAT = 'google_chat',
}

registerEnumType(WebhookFormatEnum, {
  name: 'WebhookFormat',
  description: "What a webhook's requests hold (docs/webhooks.md#chat-notifications).",
  valuesConfig: {
    STANDARD: { description: 'The signed Standard Webhooks event with the whole submission.' },
    SLACK: { description: 'A Slack incoming-webhook message.' },
    MATTERMOST: { description: 'A Mattermost incoming-webhook message.' },
    TEAMS: { description: 'A Microsoft Teams Workflows message with an Adaptive Card.' },
    DISCORD: { description: 'A Discord webhook message.' },
    GOOGLE_CHAT: { description: 'A Google Chat incoming-webhook card message.' },
  },
});

@ObjectType('Webhook', { description: 'An HTTP endpoint that receives the signed events of a form.' })
export class WebhookType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  formId!: string;

  @Field(() => String)
  url!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => WebhookFormatEnum, {
    description:
      "STANDARD: the signed event; the others: that chat platform's message (the form, the first fields, a console link).",
  })
  format!: WebhookFormatEnum;

  @Field(() => Boolean, { description: 'False when disabled by an administrator or after failing for days.' })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  disabledAt!: string | null;

  @Field(() => String, { nullable: true, description: 'Why it was disabled.' })
  disabledReason!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: the first failure since the last success; null while it is healthy.',
  })
  failingSince!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  lastSuccessAt!: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  updatedAt!: string;
}

@ObjectType('WebhookWithSecret')
export class WebhookWithSecretType {
  @Field(() => String, {
    description: 'The signing secret (`whsec_…`), shown in this answer only: keep it with the receiver.',
  })
  secret!: string;

  @Field(() => WebhookType)
  webhook!: WebhookType;
}

@ObjectType('DeliveryAttempt', { description: 'One try at a delivery.' })
export class DeliveryAttemptType {
  @Field(() => Int)
  number!: number;

  @Field(() => String, { description: 'ISO 8601.' })
  startedAt!: string;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => Boolean)
  succeeded!: boolean;

  @Field(() => Int, { nullable: true, description: 'The HTTP status the receiver answered (webhooks).' })
  statusCode!: number | null;

  @Field(() => String, { nullable: true, description: 'Why the attempt failed.' })
  error!: string | null;

  @Field(() => String, { nullable: true, description: 'The first KiB of the answer (HTTP body or SMTP reply).' })
  response!: string | null;
}

@ObjectType('Delivery', { description: 'One event for one destination: a webhook, or the notification e-mails.' })
export class DeliveryType {
  @Field(() => ID, { description: 'Also the `webhook-id` header: the same on every attempt.' })
  id!: string;

  @Field(() => String, { description: '`webhook` or `email`.' })
  channel!: string;

  @Field(() => ID, { nullable: true })
  webhookId!: string | null;

  @Field(() => ID)
  formId!: string;

  @Field(() => ID, { nullable: true })
  submissionId!: string | null;

  @Field(() => String, { description: '`submission.created` or `webhook.test`.' })
  eventType!: string;

  @Field(() => [String], { nullable: true, description: 'E-mail deliveries: the addresses.' })
  recipients!: string[] | null;

  @Field(() => DeliveryStatusEnum)
  status!: DeliveryStatusEnum;

  @Field(() => Int)
  attemptCount!: number;

  @Field(() => String, { nullable: true, description: 'ISO 8601; null once it succeeded or failed.' })
  nextAttemptAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  lastAttemptAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: when it succeeded or failed for good.' })
  completedAt!: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => [DeliveryAttemptType], { description: 'Oldest first.' })
  attempts!: DeliveryAttemptType[];
}
