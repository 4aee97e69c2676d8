import { Field, ID, InputType } from 'type-graphql';

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @Field(() => ID)
  formId!: string;

  @Field(() => String, { description: 'http:// or https://, no credentials; private addresses are refused.' })
  url!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType('UpdateWebhookInput', { description: 'Absent fields stay as they are.' })
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'Null or empty removes it.' })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True also clears a disable after failures.' })
  enabled?: boolean | null;
}
