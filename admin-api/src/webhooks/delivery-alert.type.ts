import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('DeliveryAlert', {
  description:
    "A destination of a form's events that keeps failing: its notifications are being lost (docs/webhooks.md#failing-deliveries).",
})
export class DeliveryAlertType {
  @Field(() => String, { description: '`webhook` or `email`.' })
  channel!: string;

  @Field(() => ID, { nullable: true, description: 'The webhook; null for the notification e-mails.' })
  webhookId!: string | null;

  @Field(() => String, { description: "A webhook URL's host, or `notification e-mails`." })
  target!: string;

  @Field(() => String, {
    description:
      '`failed`: its newest delivery has no retry left; `failing`: its newest attempts failed one after another; ' +
      '`disabled`: the webhook was turned off after failing for too long.',
  })
  reason!: string;

  @Field(() => Int, { description: 'Failed attempts in a row, newest first (counted up to 10).' })
  consecutiveFailures!: number;

  @Field(() => String, { nullable: true, description: 'Why the newest attempt failed, in a few words.' })
  lastError!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: the newest failed attempt.' })
  lastFailureAt!: string | null;
}
