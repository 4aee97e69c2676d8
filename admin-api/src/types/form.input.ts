import { Field, ID, InputType, Int } from 'type-graphql';

@InputType('CreateFormInput')
export class CreateFormInput {
  @Field(() => ID)
  siteId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => [String], { nullable: true, description: 'At most 10 e-mail addresses told of every submission.' })
  notifyEmails?: string[] | null;
}

@InputType('UpdateFormInput', { description: 'Absent fields stay as they are; null resets a limit to its default.' })
export class UpdateFormInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;

  @Field(() => [String], {
    nullable: true,
    description: 'A subset of the 12 default types; null restores the defaults.',
  })
  allowedMimeTypes?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Bytes, 1..MAX_FILE_SIZE; null restores MAX_FILE_SIZE.' })
  maxFileSize?: number | null;

  @Field(() => [String], {
    nullable: true,
    description: 'At most 10 e-mail addresses told of every submission; null or [] for none.',
  })
  notifyEmails?: string[] | null;
}
