import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '@intake/shared/lifecycle';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { DEFAULT_RECAPTCHA_V3_MIN_SCORE } from '@intake/shared/spam';
import type { DeclaredField } from '@intake/shared/form-shape';
import { Float, ID, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { id, maxFileSize, mimeTypes, name } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';
import {
  NOTIFY_EMAILS_MAX,
  notifyEmails,
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  blockedWords,
  captchaSecret,
  DUPLICATE_WINDOW_MAX_SECONDS,
  HONEYPOT_FIELDS_MAX,
  honeypotFields,
  MAX_LINKS_MAX,
  minScore,
  optionalCount,
  responseField,
} from '@intake/shared/input-fields';
import { formFieldShape, formFields } from '../validation/form-fields.js';
import { CaptchaProviderEnum, FieldTypeEnum, UnknownFieldsEnum } from './form.type.js';

const notNull = z.boolean({ error: 'cannot be null' });

@InputType('CreateFormInput')
export class CreateFormInput {
  @InputField(() => ID, id)
  siteId!: string;

  @InputField(() => String, name)
  name!: string;

  @InputField(() => [String], notifyEmails, {
    nullable: true,
    description: `At most ${NOTIFY_EMAILS_MAX} e-mail addresses told of every submission.`,
  })
  notifyEmails?: string[] | null;
}

// Each property carries its own check; the list is checked as a whole by `formFields` (duplicates,
// choices only for CHOICE, lengths by type).
@InputType('FormFieldInput', { description: 'A field the form declares (docs/form-fields.md).' })
export class FormFieldInput {
  @InputField(() => String, formFieldShape.name)
  name!: string;

  @InputField(() => FieldTypeEnum, formFieldShape.type)
  type!: FieldTypeEnum;

  @InputField(() => Boolean, formFieldShape.required, { defaultValue: false })
  required!: boolean;

  @InputField(() => Int, formFieldShape.maxLength, {
    nullable: true,
    description: 'TEXT, EMAIL and LIST (per item): at most this many characters.',
  })
  maxLength?: number | null;

  @InputField(() => [String], formFieldShape.choices, {
    nullable: true,
    description: 'CHOICE only: the accepted values.',
  })
  choices?: string[] | null;
}

@InputType('UpdateFormInput', { description: 'Absent fields stay as they are; null resets a limit to its default.' })
export class UpdateFormInput {
  @InputField(() => String, name, { nullable: true })
  name?: string;

  @InputField(() => Boolean, notNull, { nullable: true })
  enabled?: boolean;

  @InputField(() => [String], mimeTypes, {
    nullable: true,
    description: `A subset of the ${DEFAULT_ALLOWED_MIME_TYPES.length} default types; null restores the defaults.`,
  })
  allowedMimeTypes?: string[] | null;

  @InputField(() => Int, (config) => maxFileSize(config.limits.maxFileSize), {
    nullable: true,
    description: 'Bytes, 1..MAX_FILE_SIZE; null restores MAX_FILE_SIZE.',
  })
  maxFileSize?: number | null;

  @InputField(() => [String], notifyEmails, {
    nullable: true,
    description: `At most ${NOTIFY_EMAILS_MAX} e-mail addresses told of every submission; null or [] for none.`,
  })
  notifyEmails?: string[] | null;

  // The spam protection settings; absent leaves a setting as it is, null turns it off.

  @InputField(() => [String], honeypotFields, {
    nullable: true,
    description: `Honeypot fields (at most ${HONEYPOT_FIELDS_MAX} field names); null or [] turns the honeypot off.`,
  })
  honeypotFields?: string[] | null;

  @InputField(() => CaptchaProviderEnum, z.enum(CaptchaProviderEnum).nullable(), {
    nullable: true,
    description: 'null turns the CAPTCHA off (and forgets its secret); a provider needs captchaSecret once.',
  })
  captchaProvider?: CaptchaProviderEnum | null;

  @InputField(() => String, captchaSecret, {
    nullable: true,
    description: "The provider's secret key; write-only, stored encrypted.",
  })
  captchaSecret?: string;

  @InputField(() => String, responseField, {
    nullable: true,
    description: "Field of the visitor's answer; null: the provider's usual name.",
  })
  captchaResponseField?: string | null;

  @InputField(() => Float, minScore, {
    nullable: true,
    description: `reCAPTCHA v3: lowest accepted score, 0..1; null: ${DEFAULT_RECAPTCHA_V3_MIN_SCORE}.`,
  })
  captchaMinScore?: number | null;

  @InputField(() => Boolean, notNull, {
    nullable: true,
    description: 'Provider unreachable: store as spam instead of 503.',
  })
  captchaUnavailableAsSpam?: boolean;

  @InputField(() => Int, optionalCount(1, DUPLICATE_WINDOW_MAX_SECONDS), {
    nullable: true,
    description: `Duplicate filter window, 1..${DUPLICATE_WINDOW_MAX_SECONDS} seconds; null turns it off.`,
  })
  duplicateWindowSeconds?: number | null;

  @InputField(() => Int, optionalCount(0, MAX_LINKS_MAX), {
    nullable: true,
    description: `Most links allowed across all values, 0..${MAX_LINKS_MAX}; null turns it off.`,
  })
  maxLinks?: number | null;

  @InputField(() => [String], blockedWords, {
    nullable: true,
    description:
      `At most ${BLOCKED_WORDS_MAX} blocked words or phrases of 1..${BLOCKED_WORD_MAX_LENGTH} characters; ` +
      'null or [] turns it off.',
  })
  blockedWords?: string[] | null;

  @InputField(() => Int, optionalCount(RETENTION_DAYS_MIN, RETENTION_DAYS_MAX), {
    nullable: true,
    description:
      `Days a submission (spam included) is kept, ${RETENTION_DAYS_MIN}..${RETENTION_DAYS_MAX}, then deleted ` +
      'with its files; null keeps it.',
  })
  retentionDays?: number | null;

  @InputField(() => [FormFieldInput], formFields, {
    nullable: true,
    description:
      'The fields the form takes, in order (docs/form-fields.md); a submission that breaks them is 400 ' +
      'fields_invalid. null or [] declares none: every key is accepted.',
  })
  fields?: DeclaredField[] | null;

  @InputField(() => UnknownFieldsEnum, z.enum(UnknownFieldsEnum, { error: 'must be REFUSE or DROP' }), {
    nullable: true,
    description: 'With declared fields: refuse a submission holding another field, or drop that field.',
  })
  unknownFields?: UnknownFieldsEnum;
}
