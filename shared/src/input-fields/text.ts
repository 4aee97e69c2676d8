// The checks of plain text and whole numbers every input shares, and a display name (its bound is
// @intake/contract's).
import { NAME_MAX_LENGTH } from '@intake/contract';
import { z } from 'zod';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Length in Unicode code points, as PostgreSQL's varchar(n) counts. */
export function codePoints(value: string): number {
  return [...value].length;
}

/** Well-formed Unicode without control characters. */
export function isPlainText(value: string): boolean {
  return value.isWellFormed() && !CONTROL_CHARACTERS.test(value);
}

/** Fails a transform with a problem (the field is named by parseInput). */
export function fail(context: z.RefinementCtx, message: string): never {
  context.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** A whole number in a range, with one message for every way of missing it. */
export function wholeNumber(min: number, max: number, message = `must be between ${min} and ${max}`) {
  return z
    .number({ error: message })
    .refine((value) => Number.isSafeInteger(value) && value >= min && value <= max, message);
}

/** A display name: trimmed, 1..200 characters, no control characters. */
export const name = z
  .string({ error: 'is required' })
  .trim()
  .refine(isPlainText, 'must not contain control characters')
  .refine(
    (value) => codePoints(value) >= 1 && codePoints(value) <= NAME_MAX_LENGTH,
    `must be between 1 and ${NAME_MAX_LENGTH} characters`,
  );
