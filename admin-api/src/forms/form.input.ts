import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '@intake/shared/lifecycle';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { DEFAULT_RECAPTCHA_V3_MIN_SCORE } from '@intake/shared/spam';
import type { DeclaredField } from '@intake/shared/form-shape';
import { Float, ID, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { id, maxFileSize, mimeTypes, name, wholeNumber } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';
import {
  BROWSER_ORIGINS_MAX,
  BROWSER_TEXT_MAX_LENGTH,
  CHALLENGE_DIFFICULTY_DEFAULT,
  CHALLENGE_DIFFICULTY_MAX,
  CHALLENGE_DIFFICULTY_MIN,
  THANK_YOU_URLS_MAX,
  browserOrigins,
  browserText,
  browserTexts,
  challengeDifficulty,
  thankYouUrls,
  type BrowserTexts,
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
  scheduleTime,
  submissionCap,
  SUBMISSION_CAP_MAX,
  confirmationSafeFields,
  confirmationSubject,
  confirmationTemplate,
} from '@intake/shared/input-fields';
import {
  CONFIRMATION_SAFE_FIELDS_MAX,
  CONFIRMATION_SUBJECT_MAX_LENGTH,
  CONFIRMATION_TEMPLATE_MAX_LENGTH,
} from '@intake/shared/delivery';
import { formFieldShape, formFields } from './form-fields.js';
import { BrowserChallengeEnum, CaptchaProviderEnum, FieldTypeEnum, UnknownFieldsEnum } from './form.type.js';

const notNull = z.boolean({ error: 'cannot be null' });

/** The field a per-address cap counts: a field name, checked against the declared fields later. */
const capAddressField = formFieldShape.name.nullable();

/**
 * The cap and schedule (docs/submissions.md#caps-and-a-schedule), checked with the form's other
 * settings by applyFormLimits. On an update, absent leaves a setting as it is and null removes it.
 * Not a GraphQL type of its own (nothing takes it): its fields are part of each input that extends it.
 */
@InputType('FormLimitsInput')
export abstract class FormLimitsInput {
  @InputField(() => Int, submissionCap, {
    nullable: true,
    description: `At most this many submissions (spam not counted), 1..${SUBMISSION_CAP_MAX}; null: no cap.`,
  })
  maxSubmissions?: number | null;

  @InputField(() => Int, submissionCap, {
    nullable: true,
    description: `At most this many per address of capAddressField, 1..${SUBMISSION_CAP_MAX}; null: no cap.`,
  })
  maxSubmissionsPerAddress?: number | null;

  @InputField(() => String, capAddressField, {
    nullable: true,
    description: 'The declared EMAIL field whose address maxSubmissionsPerAddress counts.',
  })
  capAddressField?: string | null;

  @InputField(() => String, scheduleTime, {
    nullable: true,
    description: 'ISO 8601 with a time zone: submissions are refused (403 form_closed) before it; null: open.',
  })
  opensAt?: Date | null;

  @InputField(() => String, scheduleTime, {
    nullable: true,
    description: 'ISO 8601 with a time zone, after opensAt: submissions are refused from then on; null: never.',
  })
  closesAt?: Date | null;
}

@InputType('CreateFormInput')
export class CreateFormInput extends FormLimitsInput {
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

// Each text declares its check; `browserTexts` checks them together and turns all-absent into null.
@InputType('BrowserTextsInput', {
  description: `The texts of a visitor's pages, each 1 to ${BROWSER_TEXT_MAX_LENGTH} characters; absent or null: the default.`,
})
export class BrowserTextsInput {
  @InputField(() => String, browserText('language'), {
    nullable: true,
    description: 'A language tag such as en or de-CH.',
  })
  language?: string | null;

  @InputField(() => String, browserText('title'), { nullable: true })
  title?: string | null;

  @InputField(() => String, browserText('message'), { nullable: true })
  message?: string | null;

  @InputField(() => String, browserText('received'), { nullable: true })
  received?: string | null;

  @InputField(() => String, browserText('reference'), { nullable: true })
  reference?: string | null;

  @InputField(() => String, browserText('files'), { nullable: true })
  files?: string | null;

  @InputField(() => String, browserText('receipt'), { nullable: true })
  receipt?: string | null;

  @InputField(() => String, browserText('receiptHelp'), { nullable: true })
  receiptHelp?: string | null;

  @InputField(() => String, browserText('errorTitle'), { nullable: true })
  errorTitle?: string | null;

  @InputField(() => String, browserText('back'), { nullable: true })
  back?: string | null;
}

/** A limit of browser posts: 1 (0 for files) up to the limit every post has; null: the default. */
function browserLimit(min: number, max: number, unit: string) {
  return wholeNumber(min, max, `must be between ${min} and ${max}${unit}`).nullable();
}

@InputType('UpdateFormInput', { description: 'Absent fields stay as they are; null resets a limit to its default.' })
export class UpdateFormInput extends FormLimitsInput {
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

  // Browser posting (docs/static-sites.md); absent leaves a setting as it is.

  @InputField(() => Boolean, notNull, {
    nullable: true,
    description: 'Take posts without credentials from the pages of browserOrigins.',
  })
  browserPosting?: boolean;

  @InputField(() => [String], browserOrigins, {
    nullable: true,
    description: `At most ${BROWSER_ORIGINS_MAX} exact origins (https, or http on localhost and 127.0.0.1); null or [] for none.`,
  })
  browserOrigins?: string[] | null;

  @InputField(() => [String], thankYouUrls, {
    nullable: true,
    description: `At most ${THANK_YOU_URLS_MAX} exact addresses a browser is sent to after a post (the first unless \`_next\` names another); null or []: Intake's own page.`,
  })
  browserThankYouUrls?: string[] | null;

  @InputField(
    () => BrowserChallengeEnum,
    z.enum(BrowserChallengeEnum, { error: 'must be REQUIRED, RECORD_ONLY or OFF' }),
    {
      nullable: true,
      description: 'OFF needs confirmChallengeOff: true.',
    },
  )
  browserChallenge?: BrowserChallengeEnum;

  @InputField(() => Boolean, notNull, {
    nullable: true,
    description: 'Confirms browserChallenge: OFF: any script may then post to the form without any work.',
  })
  confirmChallengeOff?: boolean;

  @InputField(() => Int, challengeDifficulty, {
    nullable: true,
    description: `Average attempts of the challenge, ${CHALLENGE_DIFFICULTY_MIN}..${CHALLENGE_DIFFICULTY_MAX}; null: ${CHALLENGE_DIFFICULTY_DEFAULT}.`,
  })
  browserChallengeDifficulty?: number | null;

  @InputField(() => BrowserTextsInput, browserTexts, {
    nullable: true,
    description: "The visitor's pages' texts, given whole (absent texts take the default); null: all defaults.",
  })
  browserTexts?: BrowserTexts | null;

  @InputField(() => Int, (config) => browserLimit(1, config.limits.maxBodySize, ' bytes'), {
    nullable: true,
    description: 'Bytes per browser post, 1..MAX_BODY_SIZE; null: BROWSER_MAX_BODY_SIZE.',
  })
  browserMaxBodySize?: number | null;

  @InputField(() => Int, (config) => browserLimit(1, config.limits.maxFileSize, ' bytes'), {
    nullable: true,
    description: 'Bytes per file of a browser post, 1..MAX_FILE_SIZE; null: BROWSER_MAX_FILE_SIZE.',
  })
  browserMaxFileSize?: number | null;

  @InputField(() => Int, (config) => browserLimit(0, config.limits.maxFiles, ''), {
    nullable: true,
    description: 'Files per browser post, 0..MAX_FILES; null: BROWSER_MAX_FILES.',
  })
  browserMaxFiles?: number | null;

  @InputField(() => Boolean, notNull, {
    nullable: true,
    description: 'Understand _next, _subject, _replyto, _gotcha and their equivalents (docs/static-sites.md).',
  })
  browserReservedFields?: boolean;

  // The confirmation to the submitter (docs/confirmations.md), checked as a whole by applyConfirmation.

  @InputField(() => Boolean, notNull, {
    nullable: true,
    description: 'Send a confirmation to the address in confirmationEmailField (not for spam).',
  })
  confirmationEnabled?: boolean;

  @InputField(() => String, formFieldShape.name.nullable(), {
    nullable: true,
    description: 'The declared EMAIL field whose address gets the confirmation.',
  })
  confirmationEmailField?: string | null;

  @InputField(() => String, confirmationSubject, {
    nullable: true,
    description: `One line of 1..${CONFIRMATION_SUBJECT_MAX_LENGTH} characters with placeholders; null: the default.`,
  })
  confirmationSubject?: string | null;

  @InputField(() => String, confirmationTemplate, {
    nullable: true,
    description:
      `Plain text of 1..${CONFIRMATION_TEMPLATE_MAX_LENGTH} characters; placeholders {{form}}, {{time}}, ` +
      '{{submission}} and {{field:NAME}} of a field in confirmationSafeFields only; null: the default.',
  })
  confirmationTemplate?: string | null;

  @InputField(() => [String], confirmationSafeFields, {
    nullable: true,
    description: `At most ${CONFIRMATION_SAFE_FIELDS_MAX} declared CHOICE, BOOLEAN or NUMBER fields the confirmation may repeat; null or [] for none.`,
  })
  confirmationSafeFields?: string[] | null;
}
