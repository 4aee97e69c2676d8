// zod schemas of the argument kinds the inputs share. Each normalises its value (trimmed, lower
// case, deduplicated) or fails with the problem, which parseInput turns into BAD_USER_INPUT
// naming the field, so an input schema reads like its rules.
import { domainToASCII } from 'node:url';
import { isKnownMimeType } from '@intake/shared/mime-types';
import { isUuid } from '@intake/shared/site-token';
import { REFUSAL_COUNT_RETENTION_DAYS } from '@intake/shared/statistics';
import { codePoints, fail, wholeNumber } from '@intake/shared/input-fields';
import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from '../access/find-admin.js';
import { parseInput } from './parse-input.js';

// Declared with the command line's setup file (@intake/shared/input-fields); re-exported for the inputs here.
export { codePoints, fail, isPlainText, name, NAME_MAX_LENGTH, wholeNumber } from '@intake/shared/input-fields';

export const DOMAIN_MAX_LENGTH = 253;
export const PASSWORD_MIN_LENGTH = 12;
// scrypt hashes any length, but an unbounded password is free work for an attacker.
export const PASSWORD_MAX_LENGTH = 1024;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
// A count that stops here answers within about 100 ms on a million submissions (docs/performance.md).
export const COUNT_UP_TO_DEFAULT = 1000;
export const COUNT_UP_TO_MAX = 10000;
// GraphQL Int is 32-bit signed.
export const GRAPHQL_INT_MAX = 2 ** 31 - 1;
export const STATISTICS_DAYS_DEFAULT = 30;
/** As many days as the refusal counts are kept. */
export const STATISTICS_DAYS_MAX = REFUSAL_COUNT_RETENTION_DAYS;

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// Whatever turns a host into a URL: scheme, path, port, credentials, query, fragment, spaces.
const NOT_IN_HOST = /[\s/\\:@?#%[\]]/;

/** A UUID (any version), returned in lower case. */
export const id = z
  .string()
  .refine((value) => isUuid(value), 'must be a UUID')
  .transform((value) => value.toLowerCase());

/**
 * A site's domain: a bare host name such as `example.com`, stored in lower case (international
 * names as punycode). Null, or an empty string, means none.
 */
export const domain = z
  .string()
  .nullable()
  .transform((value, context): string | null => {
    if (value === null || value.trim() === '') {
      return null;
    }
    const problem = 'must be a host name such as example.com (no scheme, path or port)';
    const host = value.trim().toLowerCase();
    if (host.length > DOMAIN_MAX_LENGTH * 4 || NOT_IN_HOST.test(host) || !host.isWellFormed()) {
      return fail(context, problem);
    }
    const ascii = domainToASCII(host);
    if (ascii === '' || ascii.length > DOMAIN_MAX_LENGTH) {
      return fail(context, problem);
    }
    const labels = ascii.split('.');
    // A last label of digits only is an IP address, not a host name.
    if (!labels.every((label) => DOMAIN_LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1] ?? '')) {
      return fail(context, problem);
    }
    return ascii;
  });

/** A form's allowed types: a subset of the known list, deduplicated. Null means the defaults. */
export const mimeTypes = z
  .array(z.string())
  .nullable()
  .transform((values, context): string[] | null => {
    if (values === null) {
      return null;
    }
    const result: string[] = [];
    for (const value of values) {
      const mimeType = value.trim().toLowerCase();
      if (!isKnownMimeType(mimeType)) {
        // The value is one of the caller's own arguments; cut so the message stays short.
        return fail(context, `contains an unknown type "${mimeType.slice(0, 100)}"`);
      }
      if (!result.includes(mimeType)) {
        result.push(mimeType);
      }
    }
    return result;
  });

/** A form's own file size limit: positive and at most the global MAX_FILE_SIZE. Null means the global one. */
export function maxFileSize(globalLimit: number) {
  return wholeNumber(1, globalLimit, `must be between 1 and ${globalLimit} bytes`).nullable();
}

/** A member's e-mail: trimmed and stored in lower case (accounts compare e-mails case-insensitively), at most 320 characters. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => value.length <= EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('must be an e-mail address'));

/** A new password: 12..1024 characters of valid Unicode. */
export const newPassword = z
  .string()
  .refine(
    (value) => codePoints(value) >= PASSWORD_MIN_LENGTH && codePoints(value) <= PASSWORD_MAX_LENGTH,
    `must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`,
  )
  .refine((value) => value.isWellFormed(), 'must be valid Unicode');

/** `first` of a connection: default 20, 0..100. */
export const pageSize = wholeNumber(0, PAGE_SIZE_MAX)
  .nullish()
  .transform((value) => value ?? PAGE_SIZE_DEFAULT);

/** `limit` of `countUpTo`: default 1,000, 1..10,000. */
export const countLimit = wholeNumber(1, COUNT_UP_TO_MAX)
  .nullish()
  .transform((value) => value ?? COUNT_UP_TO_DEFAULT);

/** `days` of the statistics: 1..90. */
export const statisticsDays = wholeNumber(1, STATISTICS_DAYS_MAX);

/** A scalar ID argument, checked. */
export function parseId(value: string, field: string): string {
  return parseInput(id, value, field);
}

/** `limit` of `countUpTo`, checked. */
export function parseCountLimit(value: number | null | undefined, field: string): number {
  return parseInput(countLimit, value, field);
}

/** `first` of a connection, checked. */
export function parsePageSize(value: number | null | undefined, field: string): number {
  return parseInput(pageSize, value, field);
}
