// What a save sends: the settings that differ from the stored ones (absent ones stay as they are),
// and the mistakes a person can fix, by field. A pure function of the fields, the stored settings and
// the service's limits, so every rule is unit-tested (settings-changes.test.ts).
import type { FormFieldInput, FormSettingsFieldsFragment, UpdateFormInput } from '../../../gql/graphql';
import { decodeStoredText } from '../../../lib/decode-stored-text';
import {
  isoOfLocalDateTime,
  LENGTH_FIELD_TYPES,
  localDateTimeOf,
  MIB,
  mibOf,
  providerOf,
  textsOf,
  type FieldRow,
  type SettingsLimits,
  type SettingsValues,
} from './settings-values';

export interface SettingsChanges {
  input: UpdateFormInput;
  /** By field name; empty when the settings can be saved. */
  errors: Record<string, string>;
}

/** Entries typed one a line, trimmed, without blanks or repeats (words may hold commas and spaces). */
function parseLines(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()))].filter((line) => line !== '');
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => b[index] === value);
}

/** An optional whole number: '' (or anything not a number) is null, the setting off. */
function optionalNumber(value: number | string): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Addresses typed one a line (or separated by commas), without blanks. */
function parseEmails(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

// The spam protection settings that changed, into `input`; mistakes a person can fix into `errors`.
function spamProtectionChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  errors: Record<string, string>,
): UpdateFormInput {
  const input: UpdateFormInput = {};
  const honeypots = parseLines(values.honeypotFields);
  if (!sameList(honeypots, current.honeypotFields.map(decodeStoredText))) {
    input.honeypotFields = honeypots;
  }
  const chosen = providerOf(values.captchaProvider);
  const secret = values.captchaSecret.trim();
  if (chosen !== (current.captchaProvider ?? null)) {
    input.captchaProvider = chosen;
    if (chosen && secret === '') {
      errors.captchaSecret = "Enter the provider's secret key";
    }
  }
  if (chosen && secret !== '') {
    input.captchaSecret = secret;
  }
  if (chosen) {
    const field = values.captchaResponseField.trim();
    const storedField = current.captchaResponseField ? decodeStoredText(current.captchaResponseField) : '';
    if (field !== storedField) {
      input.captchaResponseField = field === '' ? null : field;
    }
    const score = chosen === 'RECAPTCHA_V3' ? optionalNumber(values.captchaMinScore) : null;
    if (chosen === 'RECAPTCHA_V3' && score !== (current.captchaMinScore ?? null)) {
      input.captchaMinScore = score;
    }
    if (values.captchaUnavailableAsSpam !== current.captchaUnavailableAsSpam) {
      input.captchaUnavailableAsSpam = values.captchaUnavailableAsSpam;
    }
  }
  const duplicateWindow = optionalNumber(values.duplicateWindowSeconds);
  if (duplicateWindow !== (current.duplicateWindowSeconds ?? null)) {
    input.duplicateWindowSeconds = duplicateWindow;
  }
  const links = optionalNumber(values.maxLinks);
  if (links !== (current.maxLinks ?? null)) {
    input.maxLinks = links;
  }
  const words = parseLines(values.blockedWords);
  if (!sameList(words, current.blockedWords.map(decodeStoredText))) {
    input.blockedWords = words;
  }
  return input;
}

/** A field row as the API takes it: a length only where the type has one, choices only for a choice. */
function fieldInputOf(row: FieldRow): FormFieldInput {
  const maxLength = LENGTH_FIELD_TYPES.includes(row.type) ? optionalNumber(row.maxLength) : null;
  return {
    name: row.name.trim(),
    type: row.type,
    required: row.required,
    maxLength,
    choices: row.type === 'CHOICE' ? parseLines(row.choices) : null,
  };
}

// The declared fields, sent whole when any of them changed (their order included).
function declaredFieldChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  errors: Record<string, string>,
): UpdateFormInput {
  const input: UpdateFormInput = {};
  const fields = values.fields.map(fieldInputOf);
  fields.forEach((field, index) => {
    if (field.name === '') {
      errors[`fields.${index}.name`] = 'Enter a name';
    }
    if (field.type === 'CHOICE' && (field.choices ?? []).length === 0) {
      errors[`fields.${index}.choices`] = 'Enter the choices, one a line';
    }
  });
  const stored: FormFieldInput[] = current.fields.map((field) => ({
    name: field.name,
    type: field.type,
    required: field.required,
    maxLength: field.maxLength ?? null,
    choices: field.choices ?? null,
  }));
  if (JSON.stringify(fields) !== JSON.stringify(stored)) {
    input.fields = fields;
  }
  if (values.unknownFields !== current.unknownFields) {
    input.unknownFields = values.unknownFields;
  }
  return input;
}

/** A size typed in MiB as bytes, null when it is the default; undefined when it is no size. */
function bytesOf(mib: number | string, fallback: number): number | null | undefined {
  if (typeof mib !== 'number' || !Number.isFinite(mib) || mib <= 0) {
    return undefined;
  }
  const bytes = Math.round(mib * MIB);
  return bytes === fallback ? null : bytes;
}

// Browser posting (docs/static-sites.md): what changed, and what a person must fix first.
function browserChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  limits: Pick<
    SettingsLimits,
    'browserMaxBodySize' | 'browserMaxFileSize' | 'browserMaxFiles' | 'challengeDifficultyDefault'
  >,
  errors: Record<string, string>,
): UpdateFormInput {
  const input: UpdateFormInput = {};
  if (values.browserPosting !== current.browserPosting) {
    input.browserPosting = values.browserPosting;
  }
  const origins = parseLines(values.browserOrigins);
  if (!sameList(origins, current.browserOrigins)) {
    input.browserOrigins = origins;
  }
  if (values.browserPosting && origins.length === 0) {
    errors.browserOrigins = 'Enter the origins of your pages, one a line';
  }
  const urls = parseLines(values.browserThankYouUrls);
  if (!sameList(urls, current.browserThankYouUrls)) {
    input.browserThankYouUrls = urls;
  }
  if (values.browserChallenge !== current.browserChallenge) {
    input.browserChallenge = values.browserChallenge;
    if (values.browserChallenge === 'OFF') {
      if (!values.confirmChallengeOff) {
        errors.confirmChallengeOff = 'Confirm that any script may then post to this form';
      }
      input.confirmChallengeOff = values.confirmChallengeOff;
    }
  }
  const difficulty = optionalNumber(values.browserChallengeDifficulty) ?? limits.challengeDifficultyDefault;
  if (difficulty !== current.browserChallengeDifficulty) {
    input.browserChallengeDifficulty = difficulty === limits.challengeDifficultyDefault ? null : difficulty;
  }
  const texts = textsOf(current.browserTexts);
  const typed = Object.fromEntries(
    Object.entries(values.browserTexts).map(([key, text]) => [key, (text ?? '').trim()]),
  ) as typeof texts;
  if (JSON.stringify(typed) !== JSON.stringify(texts)) {
    input.browserTexts = Object.fromEntries(
      Object.entries(typed).map(([key, text]) => [key, text === '' ? null : text]),
    );
  }
  const sizes = [
    ['browserMaxBodySizeMiB', 'browserMaxBodySize', limits.browserMaxBodySize],
    ['browserMaxFileSizeMiB', 'browserMaxFileSize', limits.browserMaxFileSize],
  ] as const;
  for (const [field, setting, fallback] of sizes) {
    const bytes = bytesOf(values[field], fallback);
    if (bytes === undefined) {
      errors[setting] = 'Enter a size above 0';
    } else if ((bytes ?? fallback) !== current[setting]) {
      input[setting] = bytes;
    }
  }
  const files = optionalNumber(values.browserMaxFiles);
  if ((files ?? limits.browserMaxFiles) !== current.browserMaxFiles) {
    input.browserMaxFiles = files === limits.browserMaxFiles ? null : files;
  }
  if (values.browserReservedFields !== current.browserReservedFields) {
    input.browserReservedFields = values.browserReservedFields;
  }
  return input;
}

// The cap and schedule that changed, into `input`; the opening must come before the closing.
function capAndScheduleChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  errors: Record<string, string>,
): UpdateFormInput {
  const input: UpdateFormInput = {};
  const cap = optionalNumber(values.maxSubmissions);
  if (cap !== (current.maxSubmissions ?? null)) {
    input.maxSubmissions = cap;
  }
  const perAddress = optionalNumber(values.maxSubmissionsPerAddress);
  const field = perAddress === null ? '' : values.capAddressField;
  if (perAddress !== (current.maxSubmissionsPerAddress ?? null)) {
    input.maxSubmissionsPerAddress = perAddress;
  }
  if (perAddress !== null && field === '') {
    errors.capAddressField = 'Choose the e-mail field whose addresses are counted';
  }
  if ((field === '' ? null : field) !== (current.capAddressField ?? null)) {
    input.capAddressField = field === '' ? null : field;
  }
  const opensAt = isoOfLocalDateTime(values.opensAt);
  const closesAt = isoOfLocalDateTime(values.closesAt);
  if (opensAt !== null && closesAt !== null && opensAt >= closesAt) {
    errors.closesAt = 'Choose a closing time after the opening time';
  }
  // Compared as the input shows them (to the minute), so an untouched time is not sent back.
  if (values.opensAt !== localDateTimeOf(current.opensAt ?? null)) {
    input.opensAt = opensAt;
  }
  if (values.closesAt !== localDateTimeOf(current.closesAt ?? null)) {
    input.closesAt = closesAt;
  }
  return input;
}

// The confirmation e-mail's settings that changed (docs/confirmations.md); the service checks the
// placeholders and the fields against the declared ones.
function confirmationChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  errors: Record<string, string>,
): UpdateFormInput {
  const input: UpdateFormInput = {};
  if (values.confirmationEnabled !== current.confirmationEnabled) {
    input.confirmationEnabled = values.confirmationEnabled;
  }
  const field = values.confirmationEmailField;
  if (values.confirmationEnabled && field === '') {
    errors.confirmationEmailField = 'Choose the e-mail field whose address gets the confirmation';
  }
  if ((field === '' ? null : field) !== (current.confirmationEmailField ?? null)) {
    input.confirmationEmailField = field === '' ? null : field;
  }
  const subject = values.confirmationSubject.trim();
  if ((subject === '' ? null : subject) !== (current.confirmationSubject ?? null)) {
    input.confirmationSubject = subject === '' ? null : subject;
  }
  const template = values.confirmationTemplate.trim() === '' ? null : values.confirmationTemplate;
  if (template !== (current.confirmationTemplate ?? null)) {
    input.confirmationTemplate = template;
  }
  if (!sameSet(values.confirmationSafeFields, current.confirmationSafeFields)) {
    input.confirmationSafeFields = values.confirmationSafeFields;
  }
  return input;
}

/** The settings in `values` that differ from `current`, and what must be fixed before a save. */
export function settingsChanges(
  values: SettingsValues,
  current: FormSettingsFieldsFragment,
  limits: Pick<
    SettingsLimits,
    | 'maxFileSize'
    | 'fileTypes'
    | 'browserMaxBodySize'
    | 'browserMaxFileSize'
    | 'browserMaxFiles'
    | 'challengeDifficultyDefault'
  >,
): SettingsChanges {
  const input: UpdateFormInput = {};
  const errors: Record<string, string> = {};
  const allTypes = limits.fileTypes.map((type) => type.mimeType);
  const name = values.name.trim();
  if (name !== decodeStoredText(current.name)) {
    input.name = name;
  }
  if (values.enabled !== current.enabled) {
    input.enabled = values.enabled;
  }
  if (values.allowedMimeTypes.length === 0) {
    errors.allowedMimeTypes = 'Choose at least one file type';
  } else if (!sameSet(values.allowedMimeTypes, current.allowedMimeTypes)) {
    // All of them is the default list: null keeps the form on the defaults.
    input.allowedMimeTypes = sameSet(values.allowedMimeTypes, allTypes) ? null : values.allowedMimeTypes;
  }
  const mib = typeof values.maxFileSizeMiB === 'number' ? values.maxFileSizeMiB : Number.NaN;
  if (!Number.isFinite(mib) || mib <= 0) {
    errors.maxFileSize = 'Enter a size above 0';
  } else if (mib !== mibOf(current.maxFileSize)) {
    const bytes = Math.round(mib * MIB);
    // The service maximum is the default: null follows MAX_FILE_SIZE if the operator changes it.
    input.maxFileSize = bytes === limits.maxFileSize ? null : bytes;
  }
  const emails = parseEmails(values.notifyEmails);
  if (!sameSet(emails, current.notifyEmails) || emails.length !== current.notifyEmails.length) {
    input.notifyEmails = emails;
  }
  Object.assign(input, spamProtectionChanges(values, current, errors));
  Object.assign(input, declaredFieldChanges(values, current, errors));
  Object.assign(input, browserChanges(values, current, limits, errors));
  Object.assign(input, capAndScheduleChanges(values, current, errors));
  Object.assign(input, confirmationChanges(values, current, errors));
  const retentionDays = optionalNumber(values.retentionDays);
  if (retentionDays !== (current.retentionDays ?? null)) {
    input.retentionDays = retentionDays;
  }
  return { input, errors };
}
