// zod schemas of a form's spam protection settings (their bounds are @intake/contract's); null turns a
// part off.
import {
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  CAPTCHA_SECRET_MAX_LENGTH,
  FIELD_NAME_MAX_LENGTH,
  HONEYPOT_FIELDS_MAX,
} from '@intake/contract';
import { z } from 'zod';
import { fail, isPlainText, wholeNumber } from './text.js';

// The gateway refuses keys with markup, so a field name with it could never be sent.
const MARKUP = /[<>]/;

function fieldNameProblem(value: string): string | undefined {
  if (value === '' || [...value].length > FIELD_NAME_MAX_LENGTH) {
    return `must hold names of 1 to ${FIELD_NAME_MAX_LENGTH} characters`;
  }
  if (!isPlainText(value) || MARKUP.test(value)) {
    return 'must not hold control characters, < or >';
  }
  return undefined;
}

/** Honeypot field names, deduplicated; null or [] turns the honeypot off. */
export const honeypotFields = z
  .array(z.string())
  .nullable()
  .transform((values, context): string[] | null => {
    if (values === null || values.length === 0) {
      return null;
    }
    if (values.length > HONEYPOT_FIELDS_MAX) {
      return fail(context, `must hold at most ${HONEYPOT_FIELDS_MAX} names`);
    }
    const names = values.map((value) => value.trim());
    const problem = names.map(fieldNameProblem).find((found) => found !== undefined);
    return problem === undefined ? [...new Set(names)] : fail(context, problem);
  });

/** The field of the visitor's answer; null means the provider's usual name. */
export const responseField = z
  .string()
  .trim()
  .nullable()
  .transform((value, context) => {
    const problem = value === null ? undefined : fieldNameProblem(value);
    return problem === undefined ? value : fail(context, problem);
  });

/** A provider's secret key: printable, no spaces. Never echoed in an error. */
export const captchaSecret = z
  .string({ error: 'cannot be null; set captchaProvider to null to turn the CAPTCHA off' })
  .trim()
  .refine(
    (secret) => secret !== '' && secret.length <= CAPTCHA_SECRET_MAX_LENGTH && /^[\x21-\x7e]+$/.test(secret),
    `must be 1 to ${CAPTCHA_SECRET_MAX_LENGTH} visible ASCII characters`,
  );

/** reCAPTCHA v3's lowest accepted score. */
export const minScore = z
  .number({ error: 'must be between 0 and 1' })
  .refine((value) => Number.isFinite(value) && value >= 0 && value <= 1, 'must be between 0 and 1')
  .nullable();

/** An optional whole number in a range; null turns the rule off. */
export function optionalCount(min: number, max: number) {
  return wholeNumber(min, max).nullable();
}

/** Blocked words or phrases, trimmed, inner whitespace collapsed, deduplicated case-insensitively. */
export const blockedWords = z
  .array(z.string())
  .nullable()
  .transform((values, context): string[] | null => {
    if (values === null || values.length === 0) {
      return null;
    }
    if (values.length > BLOCKED_WORDS_MAX) {
      return fail(context, `must hold at most ${BLOCKED_WORDS_MAX} entries`);
    }
    const result: string[] = [];
    const seen = new Set<string>();
    for (const value of values) {
      const word = value.trim().replace(/\s+/gu, ' ');
      if (word === '' || [...word].length > BLOCKED_WORD_MAX_LENGTH) {
        return fail(context, `must hold entries of 1 to ${BLOCKED_WORD_MAX_LENGTH} characters`);
      }
      if (!isPlainText(word)) {
        return fail(context, 'must not hold control characters');
      }
      if (!seen.has(word.toLowerCase())) {
        seen.add(word.toLowerCase());
        result.push(word);
      }
    }
    return result;
  });
