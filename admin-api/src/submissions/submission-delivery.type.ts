import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DeliveryStatusEnum } from '../webhooks/webhook.type.js';

@ObjectType('SubmissionDelivery', {
  description:
    'What became of one delivery of a submission (a webhook or its notification e-mails), readable by whoever ' +
    'may read the submission: where it went, never the full URL, the addresses or an answer.',
})
export class SubmissionDeliveryType {
  @Field(() => ID, { description: 'The delivery: `redeliver(deliveryId)` replays it.' })
  id!: string;

  @Field(() => String, {
    description: '`webhook`, `email` (notification e-mails) or `confirmation` (to the submitter).',
  })
  channel!: string;

  @Field(() => String, {
    description:
      "Where it went: a webhook URL's host (`hooks.example.com`), `3 recipients` for e-mail, `the submitter` for a confirmation.",
  })
  target!: string;

  @Field(() => DeliveryStatusEnum)
  status!: DeliveryStatusEnum;

  @Field(() => Int, { description: 'Attempts so far, across redeliveries.' })
  attemptCount!: number;

  @Field(() => String, {
    nullable: true,
    description:
      'Why the latest attempt failed (`HTTP 500`, `timeout after 10000 ms`, `SMTP 550`); null when it succeeded or none was made.',
  })
  lastError!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  lastAttemptAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601; null once it succeeded or failed.' })
  nextAttemptAt!: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;
}
