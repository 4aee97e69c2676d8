import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { CaptchaProviderEnum } from './form.type.js';

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

  @Field(() => [String], {
    nullable: true,
    description: 'Honeypot fields (at most 20 field names); null or [] turns the honeypot off.',
  })
  honeypotFields?: string[] | null;

  @Field(() => CaptchaProviderEnum, {
    nullable: true,
    description: 'null turns the CAPTCHA off (and forgets its secret); a provider needs captchaSecret once.',
  })
  captchaProvider?: CaptchaProviderEnum | null;

  @Field(() => String, { nullable: true, description: "The provider's secret key; write-only, stored encrypted." })
  captchaSecret?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Field of the visitor's answer; null: the provider's usual name.",
  })
  captchaResponseField?: string | null;

  @Field(() => Float, { nullable: true, description: 'reCAPTCHA v3: lowest accepted score, 0..1; null: 0.5.' })
  captchaMinScore?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Provider unreachable: store as spam instead of 503.' })
  captchaUnavailableAsSpam?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Duplicate filter window, 1..2592000 seconds; null turns it off.' })
  duplicateWindowSeconds?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Most links allowed across all values, 0..1000; null turns it off.',
  })
  maxLinks?: number | null;

  @Field(() => [String], {
    nullable: true,
    description: 'At most 200 blocked words or phrases of 1..100 characters; null or [] turns it off.',
  })
  blockedWords?: string[] | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Days a submission (spam included) is kept, 1..3650, then deleted with its files; null keeps it.',
  })
  retentionDays?: number | null;
}
