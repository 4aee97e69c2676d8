// The text of an internal note: checked, then stored as submitted text is (the shared sanitiser:
// no markup survives, the rest HTML-safe), so every reader treats notes and values alike.
import { sanitizeString } from '@intake/shared/sanitize';
import { z } from 'zod';
import { codePoints } from '../validation/fields.js';
import { parseInput } from '../validation/parse-input.js';

export const NOTE_MAX_LENGTH = 5000;

// Line breaks and tabs are a note's own; other control characters are not text.
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const noteText = z
  .string()
  .transform((value) => value.replace(/\r\n?/g, '\n').trim())
  .refine((value) => value.isWellFormed() && !CONTROL_BUT_LINES.test(value), 'must not contain control characters')
  .refine(
    (value) => codePoints(value) >= 1 && codePoints(value) <= NOTE_MAX_LENGTH,
    `must be between 1 and ${NOTE_MAX_LENGTH} characters`,
  )
  .transform((value) => sanitizeString(value).trim())
  .refine((value) => value !== '', 'has no text once its markup is removed');

/** The note as stored; BAD_USER_INPUT naming `field` when it is empty, too long or only markup. */
export function storedNoteText(value: string, field: string): string {
  return parseInput(noteText, value, field);
}
