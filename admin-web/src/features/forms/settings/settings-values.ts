// What the settings page's fields hold, and how they start from a form's stored settings.
import type { CaptchaProvider, FormSettingsFieldsFragment, FormSettingsQuery } from '../../../gql/graphql';
import { decodeStoredText } from '../../../lib/decode-stored-text';

/** The service's limits and defaults the page offers and checks against (read, never restated here). */
export type SettingsLimits = FormSettingsQuery['limits'];

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
}

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
  };
}
