import { RETENTION_DAYS_MAX } from '@intake/shared/lifecycle';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import {
  NOTIFY_EMAILS_MAX,
  BLOCKED_WORDS_MAX,
  DUPLICATE_WINDOW_MAX_SECONDS,
  HONEYPOT_FIELDS_MAX,
  MAX_LINKS_MAX,
} from '@intake/shared/input-fields';
import { CaptchaProviderEnum } from './form.type.js';

@ObjectType('FileType', { description: 'One of the file types a form may accept.' })
export class FileTypeType {
  @Field(() => String)
  mimeType!: string;

  @Field(() => String, { description: 'A name for people, e.g. "PDF document".' })
  label!: string;

  @Field(() => [String], { description: 'The extensions that name this type, without the dot.' })
  extensions!: string[];
}

@ObjectType('CaptchaProviderDefaults', {
  description: 'What a CAPTCHA provider falls back to when a form sets nothing.',
})
export class CaptchaProviderDefaultsType {
  @Field(() => CaptchaProviderEnum)
  provider!: CaptchaProviderEnum;

  @Field(() => String, { description: "The field of the visitor's answer when captchaResponseField is null." })
  defaultResponseField!: string;
}

// The settings bounds below are the same constants the UpdateFormInput checks use, so the console
// reads them here instead of restating them.
@ObjectType('Limits', {
  description: 'The limits every form lives within (from the configuration) and what its settings fall back to.',
})
export class LimitsType {
  @Field(() => Int, { description: 'MAX_FILE_SIZE: the largest maxFileSize a form may have, in bytes.' })
  maxFileSize!: number;

  @Field(() => Int, { description: 'MAX_FILES: files per submission.' })
  maxFiles!: number;

  @Field(() => Int, { description: 'MAX_BODY_SIZE: bytes per submission, all parts together.' })
  maxBodySize!: number;

  @Field(() => Int, { description: 'BROWSER_MAX_BODY_SIZE: bytes per browser post unless a form sets its own.' })
  browserMaxBodySize!: number;

  @Field(() => Int, {
    description: 'BROWSER_MAX_FILE_SIZE: bytes per file of a browser post unless a form sets its own.',
  })
  browserMaxFileSize!: number;

  @Field(() => Int, { description: 'BROWSER_MAX_FILES: files per browser post unless a form sets its own.' })
  browserMaxFiles!: number;

  @Field(() => Int, { description: 'The default average attempts of a browser challenge.' })
  challengeDifficultyDefault!: number;

  @Field(() => [FileTypeType], { description: 'The 12 types a form may allow, in their default order.' })
  fileTypes!: FileTypeType[];

  @Field(() => Int, { description: `Most notifyEmails a form may have (${NOTIFY_EMAILS_MAX}).` })
  notifyEmailsMax!: number;

  @Field(() => Int, { description: `Most honeypotFields a form may have (${HONEYPOT_FIELDS_MAX}).` })
  honeypotFieldsMax!: number;

  @Field(() => Int, { description: `Longest duplicateWindowSeconds (${DUPLICATE_WINDOW_MAX_SECONDS}, 30 days).` })
  duplicateWindowMaxSeconds!: number;

  @Field(() => Int, { description: `Largest maxLinks (${MAX_LINKS_MAX}).` })
  maxLinksMax!: number;

  @Field(() => Int, { description: `Most blockedWords a form may have (${BLOCKED_WORDS_MAX}).` })
  blockedWordsMax!: number;

  @Field(() => Int, { description: `Longest retentionDays (${RETENTION_DAYS_MAX}).` })
  retentionDaysMax!: number;

  @Field(() => Float, { description: 'The reCAPTCHA v3 minimum score when captchaMinScore is null.' })
  captchaMinScoreDefault!: number;

  @Field(() => [CaptchaProviderDefaultsType], { description: 'Every CAPTCHA provider with its defaults.' })
  captchaProviders!: CaptchaProviderDefaultsType[];

  @Field(() => Boolean, {
    description:
      "Whether SMTP_URL is set: without it no form's notification e-mail is sent. The URL itself is never shown.",
  })
  emailConfigured!: boolean;
}
