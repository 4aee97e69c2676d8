// The checks of a `SubmissionFilterInput`'s fields (zod schemas its class declares), and the
// SubmissionFilter a checked input makes.
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MIN_LENGTH } from '@intake/shared/input-fields';
import { z } from 'zod';
import { codePoints, fail, isPlainText } from '../validation/fields.js';
import { NO_SUBMISSION_FILTER, type SubmissionFilter } from './submission-filter.js';

// The search words' bounds are @intake/contract's, which the console shares. Trigram matching (pg_trgm)
// needs three characters to use its index; a shorter query would read every submission of the form.
export { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MIN_LENGTH };

// ISO 8601 as RFC 3339 writes it: a date, or a date-time with seconds optional and an explicit offset.
// Parsed by hand because Date.parse also takes non-ISO forms and rolls 2026-02-30 over to March.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2})))?$/;

function daysInMonth(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return lastDay.getUTCDate();
}

/** An ISO 8601 instant; a bare date is 00:00 UTC. Null when `value` is not one. */
export function parseIsoInstant(value: string): Date | null {
  const match = ISO_DATE_TIME.exec(value);
  if (match === null) {
    return null;
  }
  const [, y, mo, d, h, mi, s, fraction, , sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  if (sign !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) {
    return null;
  }
  const milliseconds = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
  // setUTCFullYear, not Date.UTC: the latter reads years 0..99 as 1900..1999.
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, milliseconds);
  instant.setTime(instant.getTime() - offset * 60_000);
  return instant;
}

const BOUND_PROBLEM = 'must be an ISO 8601 date-time with offset, such as 2026-11-24T09:30:00Z, or a date';

/** A bound of the creation time; null: unbounded. */
export const creationBound = z
  .string()
  .nullable()
  .transform((value, context): Date | null => {
    if (value === null) {
      return null;
    }
    return parseIsoInstant(value.trim()) ?? fail(context, BOUND_PROBLEM);
  });

/** The text searched for; empty or null: none. */
export const searchQuery = z
  .string()
  .nullable()
  .transform((value) => value?.trim() || null)
  .refine((text) => text === null || isPlainText(text), 'must not contain control characters')
  .refine(
    (text) =>
      text === null || (codePoints(text) >= SEARCH_QUERY_MIN_LENGTH && codePoints(text) <= SEARCH_QUERY_MAX_LENGTH),
    `must be between ${SEARCH_QUERY_MIN_LENGTH} and ${SEARCH_QUERY_MAX_LENGTH} characters`,
  );

/** The filter a checked input makes; no input is no filter, an absent part is no condition. */
export function submissionFilterOf(input: Partial<SubmissionFilter> | null): SubmissionFilter {
  if (input === null) {
    return NO_SUBMISSION_FILTER;
  }
  return {
    query: input.query ?? null,
    createdAfter: input.createdAfter ?? null,
    createdBefore: input.createdBefore ?? null,
    hasFiles: input.hasFiles ?? null,
  };
}
