// A form's declared settings against its current ones: the fields that differ, and the updateForm
// input that makes them true. A setting left out of the file is not compared and not sent.
import { domainToASCII } from 'node:url';
import type { Form, Limits, UpdateFormInput } from '../api/operations.js';
import type { SecretFingerprints } from '../config/secret-fingerprints.js';
import { asFormField, diffDeclaredFields } from './declared-fields.js';
import type { FieldChange } from './field-change.js';
import { BROWSER_TEXT_DEFAULTS } from '#contract';
import type { BrowserSpec, FormSpec } from './schema.js';

/** Lists compared as sets, after the API's own normalisation (trimmed; e-mails and types in lower case). */
function sameSet(desired: string[] | null, current: string[], fold: (value: string) => string): boolean {
  const normalise = (values: string[]) => [...new Set(values.map((value) => fold(value.trim())))].sort();
  return JSON.stringify(normalise(desired ?? [])) === JSON.stringify(normalise(current));
}

const lower = (value: string) => value.toLowerCase();
const asIs = (value: string) => value;

type ListKey = 'allowedMimeTypes' | 'notifyEmails' | 'honeypotFields' | 'blockedWords';
type NumberKey =
  'retentionDays' | 'maxLinks' | 'duplicateWindowSeconds' | 'maxSubmissions' | 'maxSubmissionsPerAddress';

const LISTS: { key: ListKey; fold: (value: string) => string }[] = [
  { key: 'notifyEmails', fold: lower },
  { key: 'honeypotFields', fold: asIs },
  { key: 'blockedWords', fold: lower },
];
const NUMBERS: NumberKey[] = [
  'retentionDays',
  'maxLinks',
  'duplicateWindowSeconds',
  'maxSubmissions',
  'maxSubmissionsPerAddress',
];
const TIMES = ['opensAt', 'closesAt'] as const;

/** The same moment, whatever the zone it is written in; null the same as null. */
function sameTime(desired: string | null, current: string | null | undefined): boolean {
  if (desired === null || current == null) {
    return desired === (current ?? null);
  }
  return new Date(desired).getTime() === new Date(current).getTime();
}

export interface FormSettingsDiff {
  fields: FieldChange[];
  input: UpdateFormInput;
  /** The CAPTCHA secret being sent (to fingerprint once applied), or null when the CAPTCHA goes. */
  secret?: string | null;
}

/** `current` is undefined for a form still to create: every declared setting is then a change. */
export function diffFormSettings(
  spec: FormSpec,
  current: Form | undefined,
  limits: Limits,
  fingerprints: SecretFingerprints,
): FormSettingsDiff {
  const fields: FieldChange[] = [];
  const input: UpdateFormInput = {};
  const diff: FormSettingsDiff = { fields, input };
  const change = (field: string, from: unknown, to: unknown) => fields.push({ field, from, to });

  if (spec.enabled !== undefined && spec.enabled !== current?.enabled) {
    change('enabled', current?.enabled, spec.enabled);
    input.enabled = spec.enabled;
  }
  if (spec.allowedMimeTypes !== undefined) {
    const same = current
      ? spec.allowedMimeTypes === null
        ? current.usesDefaultMimeTypes
        : sameSet(spec.allowedMimeTypes, current.allowedMimeTypes, lower)
      : false;
    if (!same) {
      change(
        'allowedMimeTypes',
        current?.usesDefaultMimeTypes ? null : current?.allowedMimeTypes,
        spec.allowedMimeTypes,
      );
      input.allowedMimeTypes = spec.allowedMimeTypes;
    }
  }
  if (spec.maxFileSize !== undefined && (spec.maxFileSize ?? limits.maxFileSize) !== current?.maxFileSize) {
    change('maxFileSize', current?.maxFileSize, spec.maxFileSize);
    input.maxFileSize = spec.maxFileSize;
  }
  for (const { key, fold } of LISTS) {
    const desired = spec[key];
    if (desired !== undefined && !(current && sameSet(desired, current[key], fold))) {
      change(key, current?.[key], desired);
      input[key] = desired;
    }
  }
  for (const key of NUMBERS) {
    const desired = spec[key];
    if (desired !== undefined && desired !== (current ? current[key] : undefined)) {
      change(key, current?.[key], desired);
      input[key] = desired;
    }
  }
  if (spec.capAddressField !== undefined && spec.capAddressField !== (current ? current.capAddressField : undefined)) {
    change('capAddressField', current?.capAddressField, spec.capAddressField);
    input.capAddressField = spec.capAddressField;
  }
  for (const key of TIMES) {
    const desired = spec[key];
    if (desired !== undefined && !(current && sameTime(desired, current[key]))) {
      change(key, current?.[key], desired);
      input[key] = desired;
    }
  }

  if (spec.fields !== undefined) {
    const desired = (spec.fields ?? []).map(asFormField);
    const changes = diffDeclaredFields(desired, current?.fields ?? []);
    if (changes.length > 0) {
      fields.push(...changes);
      input.fields = desired;
    }
  }
  if (spec.unknownFields !== undefined && spec.unknownFields !== current?.unknownFields.toLowerCase()) {
    change('unknownFields', current?.unknownFields.toLowerCase(), spec.unknownFields);
    input.unknownFields = spec.unknownFields === 'drop' ? 'DROP' : 'REFUSE';
  }

  if (spec.browser !== undefined) {
    diffBrowserSettings(spec.browser, current, limits, change, input);
  }

  const captcha = spec.captcha;
  if (captcha === null && (current?.captchaProvider ?? null) !== null) {
    change('captcha.provider', current?.captchaProvider, null);
    input.captchaProvider = null;
    diff.secret = null;
  } else if (captcha) {
    const providerChanges = captcha.provider !== current?.captchaProvider;
    if (providerChanges) {
      change('captcha.provider', current?.captchaProvider ?? null, captcha.provider);
    }
    const secretKnown =
      current !== undefined && current.captchaSecretSet && fingerprints.matches(current.id, captcha.secret);
    if (providerChanges || !secretKnown) {
      fields.push({ field: 'captcha.secret', secret: true });
      input.captchaProvider = captcha.provider;
      input.captchaSecret = captcha.secret;
      diff.secret = captcha.secret;
    }
    if (captcha.responseField !== undefined && captcha.responseField !== current?.captchaResponseField) {
      change('captcha.responseField', current?.captchaResponseField, captcha.responseField);
      input.captchaResponseField = captcha.responseField;
    }
    if (captcha.minScore !== undefined && captcha.minScore !== current?.captchaMinScore) {
      change('captcha.minScore', current?.captchaMinScore, captcha.minScore);
      input.captchaMinScore = captcha.minScore;
    }
    if (captcha.unavailableAsSpam !== undefined && captcha.unavailableAsSpam !== current?.captchaUnavailableAsSpam) {
      change('captcha.unavailableAsSpam', current?.captchaUnavailableAsSpam, captcha.unavailableAsSpam);
      input.captchaUnavailableAsSpam = captcha.unavailableAsSpam;
    }
  }
  return diff;
}

type TextKey = keyof typeof BROWSER_TEXT_DEFAULTS;

/**
 * An origin or an address in the URL parser's spelling, as the API stores it, to compare with what
 * it has; the text as written when it does not parse (the API then refuses it in its own words).
 */
function parsedSpelling(text: string, part: 'origin' | 'href'): string {
  try {
    return new URL(text.trim())[part];
  } catch {
    return text;
  }
}

/** Browser posting (docs/static-sites.md): lists in the API's spelling; limits against their defaults. */
function diffBrowserSettings(
  spec: BrowserSpec,
  current: Form | undefined,
  limits: Limits,
  change: (field: string, from: unknown, to: unknown) => void,
  input: UpdateFormInput,
): void {
  if (spec.posting !== current?.browserPosting) {
    change('browser.posting', current?.browserPosting, spec.posting);
    input.browserPosting = spec.posting;
  }
  // A text the API would refuse is sent as written, so its own words reach the user.
  const origins = spec.origins?.map((origin) => parsedSpelling(origin, 'origin'));
  if (origins !== undefined && !sameSet(origins, current?.browserOrigins ?? [], asIs)) {
    change('browser.origins', current?.browserOrigins, spec.origins);
    input.browserOrigins = spec.origins;
  }
  const urls = spec.thankYouUrls?.map((url) => parsedSpelling(url, 'href'));
  if (urls !== undefined && JSON.stringify(urls) !== JSON.stringify(current?.browserThankYouUrls ?? [])) {
    change('browser.thankYouUrls', current?.browserThankYouUrls, spec.thankYouUrls);
    input.browserThankYouUrls = spec.thankYouUrls;
  }
  if (spec.challenge !== undefined && spec.challenge !== current?.browserChallenge.toLowerCase()) {
    change('browser.challenge', current?.browserChallenge.toLowerCase(), spec.challenge);
    input.browserChallenge =
      spec.challenge === 'off' ? 'OFF' : spec.challenge === 'record_only' ? 'RECORD_ONLY' : 'REQUIRED';
    if (spec.challenge === 'off') {
      input.confirmChallengeOff = true;
    }
  }
  if (
    spec.challengeDifficulty !== undefined &&
    (spec.challengeDifficulty ?? limits.challengeDifficultyDefault) !== current?.browserChallengeDifficulty
  ) {
    change('browser.challengeDifficulty', current?.browserChallengeDifficulty, spec.challengeDifficulty);
    input.browserChallengeDifficulty = spec.challengeDifficulty;
  }
  if (spec.texts !== undefined) {
    const keys = Object.keys(BROWSER_TEXT_DEFAULTS) as TextKey[];
    const desired = (key: TextKey) => spec.texts?.[key] ?? BROWSER_TEXT_DEFAULTS[key];
    const changed = keys.filter((key) => desired(key) !== current?.browserTexts[key]);
    if (changed.length > 0) {
      for (const key of changed) {
        change(`browser.texts.${key}`, current?.browserTexts[key], desired(key));
      }
      input.browserTexts = spec.texts;
    }
  }
  const limitPairs = [
    ['maxBodySize', 'browserMaxBodySize', limits.browserMaxBodySize],
    ['maxFileSize', 'browserMaxFileSize', limits.browserMaxFileSize],
    ['maxFiles', 'browserMaxFiles', limits.browserMaxFiles],
  ] as const;
  for (const [key, setting, fallback] of limitPairs) {
    const desired = spec[key];
    if (desired !== undefined && (desired ?? fallback) !== current?.[setting]) {
      change(`browser.${key}`, current?.[setting], desired);
      input[setting] = desired;
    }
  }
  if (spec.reservedFields !== undefined && spec.reservedFields !== current?.browserReservedFields) {
    change('browser.reservedFields', current?.browserReservedFields, spec.reservedFields);
    input.browserReservedFields = spec.reservedFields;
  }
}

/** A domain as the API stores it: lower case, punycode for international names. */
export function normaliseDomain(domain: string | null | undefined): string | null {
  if (!domain) {
    return null;
  }
  return domainToASCII(domain.trim().toLowerCase()) || domain.trim().toLowerCase();
}
