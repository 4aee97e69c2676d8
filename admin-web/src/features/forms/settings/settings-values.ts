// What the settings page's fields hold, and how they start from a form's stored settings.
import type {
  BrowserChallenge,
  CaptchaProvider,
  FieldType,
  FormSettingsFieldsFragment,
  FormSettingsQuery,
  UnknownFields,
} from '../../../gql/graphql';
import { decodeStoredText } from '../../../lib/decode-stored-text';

/** The service's limits and defaults the page offers and checks against (read, never restated here). */
export type SettingsLimits = FormSettingsQuery['limits'];

/** The texts of the visitor's pages as the form reads them. */
export type BrowserTexts = FormSettingsFieldsFragment['browserTexts'];
type TextKey = keyof BrowserTexts;

export const MIB = 1024 * 1024;

/** The CAPTCHA providers' names for people (their defaults come from `limits.captchaProviders`). */
export const PROVIDER_LABELS: Record<CaptchaProvider, string> = {
  TURNSTILE: 'Cloudflare Turnstile',
  HCAPTCHA: 'hCaptcha',
  RECAPTCHA_V2: 'reCAPTCHA v2',
  RECAPTCHA_V3: 'reCAPTCHA v3',
};

export function providerOf(value: string): CaptchaProvider | null {
  return Object.hasOwn(PROVIDER_LABELS, value) ? (value as CaptchaProvider) : null;
}

/** The declared field types' names for people, in the order the type menu offers them. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  TEXT: 'Text',
  EMAIL: 'E-mail address',
  NUMBER: 'Number',
  BOOLEAN: 'Yes or no',
  CHOICE: 'Choice from a list',
  LIST: 'List of text',
};

/** The types that may have a maximum length (per item for a list), as the API allows. */
export const LENGTH_FIELD_TYPES: readonly FieldType[] = ['TEXT', 'EMAIL', 'LIST'];

/** One declared field as its inputs hold it: choices one a line, an empty length for none. */
export interface FieldRow {
  /** Stable across reordering, for React's keys; never sent. */
  key: string;
  name: string;
  type: FieldType;
  required: boolean;
  maxLength: number | string;
  choices: string;
}

let nextRowKey = 0;

export function newFieldRow(): FieldRow {
  nextRowKey += 1;
  return { key: `field-${nextRowKey}`, name: '', type: 'TEXT', required: false, maxLength: '', choices: '' };
}

export interface SettingsValues {
  name: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  maxFileSizeMiB: number | string;
  notifyEmails: string;
  honeypotFields: string;
  /** '' is no CAPTCHA. */
  captchaProvider: string;
  captchaSecret: string;
  captchaResponseField: string;
  captchaMinScore: number | string;
  captchaUnavailableAsSpam: boolean;
  duplicateWindowSeconds: number | string;
  maxLinks: number | string;
  blockedWords: string;
  retentionDays: number | string;
  fields: FieldRow[];
  unknownFields: UnknownFields;
  browserPosting: boolean;
  browserOrigins: string;
  browserThankYouUrls: string;
  browserChallenge: BrowserChallenge;
  /** Ticked to turn the challenge off knowingly; never stored. */
  confirmChallengeOff: boolean;
  browserChallengeDifficulty: number | string;
  browserTexts: Record<TextKey, string>;
  browserMaxBodySizeMiB: number | string;
  browserMaxFileSizeMiB: number | string;
  browserMaxFiles: number | string;
  browserReservedFields: boolean;
  maxSubmissions: number | string;
  maxSubmissionsPerAddress: number | string;
  /** '' is no per-address cap's field. */
  capAddressField: string;
  /** As a `datetime-local` input holds it, in the browser's time zone; '' is none. */
  opensAt: string;
  closesAt: string;
  confirmationEnabled: boolean;
  /** '' is none. */
  confirmationEmailField: string;
  /** '' is the default. */
  confirmationSubject: string;
  confirmationTemplate: string;
  confirmationSafeFields: string[];
}

/** The texts of the visitor's pages, in the order the card shows them, with their labels. */
export const BROWSER_TEXT_LABELS: Record<TextKey, string> = {
  language: 'Language (a tag such as en or de-CH)',
  title: 'Thank-you title',
  message: 'Thank-you message',
  received: 'Label of the time of receipt',
  reference: 'Label of the reference',
  files: 'Label of the files',
  receipt: 'Receipt button',
  receiptHelp: 'What the receipt is for',
  errorTitle: 'Title of a refusal',
  back: 'Link back to the form',
};

export function mibOf(bytes: number): number {
  return Math.round((bytes / MIB) * 1000) / 1000;
}

/** The fields as the stored settings fill them (the secret is never shown: it starts empty). */
export function settingsValuesOf(current: FormSettingsFieldsFragment): SettingsValues {
  return {
    name: decodeStoredText(current.name),
    enabled: current.enabled,
    allowedMimeTypes: current.allowedMimeTypes,
    maxFileSizeMiB: mibOf(current.maxFileSize),
    notifyEmails: current.notifyEmails.join('\n'),
    honeypotFields: current.honeypotFields.map(decodeStoredText).join('\n'),
    captchaProvider: current.captchaProvider ?? '',
    captchaSecret: '',
    captchaResponseField: current.captchaResponseField ? decodeStoredText(current.captchaResponseField) : '',
    captchaMinScore: current.captchaMinScore ?? '',
    captchaUnavailableAsSpam: current.captchaUnavailableAsSpam,
    duplicateWindowSeconds: current.duplicateWindowSeconds ?? '',
    maxLinks: current.maxLinks ?? '',
    blockedWords: current.blockedWords.map(decodeStoredText).join('\n'),
    retentionDays: current.retentionDays ?? '',
    // Names and choices are the administrator's own text, stored as typed (not HTML-safe like values).
    fields: current.fields.map((field) => ({
      ...newFieldRow(),
      name: field.name,
      type: field.type,
      required: field.required,
      maxLength: field.maxLength ?? '',
      choices: (field.choices ?? []).join('\n'),
    })),
    unknownFields: current.unknownFields,
    browserPosting: current.browserPosting,
    browserOrigins: current.browserOrigins.join('\n'),
    browserThankYouUrls: current.browserThankYouUrls.join('\n'),
    browserChallenge: current.browserChallenge,
    confirmChallengeOff: false,
    browserChallengeDifficulty: current.browserChallengeDifficulty,
    browserTexts: textsOf(current.browserTexts),
    browserMaxBodySizeMiB: mibOf(current.browserMaxBodySize),
    browserMaxFileSizeMiB: mibOf(current.browserMaxFileSize),
    browserMaxFiles: current.browserMaxFiles,
    browserReservedFields: current.browserReservedFields,
    maxSubmissions: current.maxSubmissions ?? '',
    maxSubmissionsPerAddress: current.maxSubmissionsPerAddress ?? '',
    capAddressField: current.capAddressField ?? '',
    opensAt: localDateTimeOf(current.opensAt ?? null),
    closesAt: localDateTimeOf(current.closesAt ?? null),
    confirmationEnabled: current.confirmationEnabled,
    confirmationEmailField: current.confirmationEmailField ?? '',
    // The templates are the administrator's own text, stored as typed.
    confirmationSubject: current.confirmationSubject ?? '',
    confirmationTemplate: current.confirmationTemplate ?? '',
    confirmationSafeFields: [...current.confirmationSafeFields],
  };
}

/** An ISO 8601 moment as a `datetime-local` input shows it, in the browser's time zone. */
export function localDateTimeOf(iso: string | null): string {
  if (iso === null) {
    return '';
  }
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the browser's time zone) as ISO 8601 in UTC; null for '' or nonsense. */
export function isoOfLocalDateTime(local: string): string | null {
  const date = local.trim() === '' ? null : new Date(local);
  return date === null || Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The texts alone (urql adds a `__typename`, which an input must not carry). */
export function textsOf(texts: BrowserTexts): Record<TextKey, string> {
  return Object.fromEntries((Object.keys(BROWSER_TEXT_LABELS) as TextKey[]).map((key) => [key, texts[key]])) as Record<
    TextKey,
    string
  >;
}
