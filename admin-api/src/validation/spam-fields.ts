// Checks of a form's spam protection settings; each returns the normalised value (null turns the
// part off) or throws a BAD_USER_INPUT error naming the field.
import { badUserInput } from '../schema/errors.js';

export const HONEYPOT_FIELDS_MAX = 20;
export const FIELD_NAME_MAX_LENGTH = 100;
export const BLOCKED_WORDS_MAX = 200;
export const BLOCKED_WORD_MAX_LENGTH = 100;
export const CAPTCHA_SECRET_MAX_LENGTH = 500;
export const DUPLICATE_WINDOW_MAX_SECONDS = 30 * 24 * 60 * 60;
export const MAX_LINKS_MAX = 1000;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// The gateway refuses keys with markup, so a field name with it could never be sent.
const MARKUP = /[<>]/;

function parseFieldName(value: string, field: string): string {
  const name = value.trim();
  if (name === '' || [...name].length > FIELD_NAME_MAX_LENGTH) {
    throw badUserInput(field, `must hold names of 1 to ${FIELD_NAME_MAX_LENGTH} characters`);
  }
  if (!name.isWellFormed() || CONTROL_CHARACTERS.test(name) || MARKUP.test(name)) {
    throw badUserInput(field, 'must not hold control characters, < or >');
  }
  return name;
}

/** Honeypot field names, deduplicated; null or [] turns the honeypot off. */
export function parseHoneypotFields(values: readonly string[] | null, field: string): string[] | null {
  if (values === null || values.length === 0) {
    return null;
  }
  if (values.length > HONEYPOT_FIELDS_MAX) {
    throw badUserInput(field, `must hold at most ${HONEYPOT_FIELDS_MAX} names`);
  }
  return [...new Set(values.map((value) => parseFieldName(value, field)))];
}

/** The field of the visitor's answer; null means the provider's usual name. */
export function parseResponseField(value: string | null, field: string): string | null {
  return value === null ? null : parseFieldName(value, field);
}

/** A provider's secret key: printable, no spaces. Never echoed in an error. */
export function parseCaptchaSecret(value: string, field: string): string {
  const secret = value.trim();
  if (secret === '' || secret.length > CAPTCHA_SECRET_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(secret)) {
    throw badUserInput(field, `must be 1 to ${CAPTCHA_SECRET_MAX_LENGTH} visible ASCII characters`);
  }
  return secret;
}

export function parseMinScore(value: number | null, field: string): number | null {
  if (value === null) {
    return null;
  }
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw badUserInput(field, 'must be between 0 and 1');
  }
  return value;
}

/** An optional whole number in a range; null turns the rule off. */
export function parseOptionalCount(value: number | null, min: number, max: number, field: string): number | null {
  if (value === null) {
    return null;
  }
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badUserInput(field, `must be between ${min} and ${max}`);
  }
  return value;
}

/** Blocked words or phrases, trimmed, inner whitespace collapsed, deduplicated case-insensitively. */
export function parseBlockedWords(values: readonly string[] | null, field: string): string[] | null {
  if (values === null || values.length === 0) {
    return null;
  }
  if (values.length > BLOCKED_WORDS_MAX) {
    throw badUserInput(field, `must hold at most ${BLOCKED_WORDS_MAX} entries`);
  }
  const result: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const word = value.trim().replace(/\s+/gu, ' ');
    if (word === '' || [...word].length > BLOCKED_WORD_MAX_LENGTH) {
      throw badUserInput(field, `must hold entries of 1 to ${BLOCKED_WORD_MAX_LENGTH} characters`);
    }
    if (!word.isWellFormed() || CONTROL_CHARACTERS.test(word)) {
      throw badUserInput(field, 'must not hold control characters');
    }
    if (!seen.has(word.toLowerCase())) {
      seen.add(word.toLowerCase());
      result.push(word);
    }
  }
  return result;
}
