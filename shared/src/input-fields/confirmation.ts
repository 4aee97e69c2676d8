// The checks of a form's confirmation settings (docs/confirmations.md) taken one by one; how they fit
// the declared fields (an EMAIL address field, safe fields that hold no free text, placeholders only
// of safe fields) is checked with the form as a whole.
import { z } from 'zod';
import {
  CONFIRMATION_SAFE_FIELDS_MAX,
  CONFIRMATION_SUBJECT_MAX_LENGTH,
  CONFIRMATION_TEMPLATE_MAX_LENGTH,
} from '../delivery/confirmation.js';
import { codePoints, isPlainText } from './text.js';

const TEMPLATE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** One line of 1..200 characters; null: the default subject. */
export const confirmationSubject = z
  .string()
  .trim()
  .refine(isPlainText, 'must be one line without control characters')
  .refine(
    (value) => codePoints(value) >= 1 && codePoints(value) <= CONFIRMATION_SUBJECT_MAX_LENGTH,
    `must be between 1 and ${CONFIRMATION_SUBJECT_MAX_LENGTH} characters`,
  )
  .nullable();

/** Plain text of 1..5000 characters, line breaks allowed; null: the default message. */
export const confirmationTemplate = z
  .string()
  .refine((value) => value.isWellFormed() && !TEMPLATE_CONTROLS.test(value), 'must not hold control characters')
  .refine(
    (value) => value.trim() !== '' && codePoints(value) <= CONFIRMATION_TEMPLATE_MAX_LENGTH,
    `must be between 1 and ${CONFIRMATION_TEMPLATE_MAX_LENGTH} characters`,
  )
  .nullable();

/** Names of declared fields; null or []: none. */
export const confirmationSafeFields = z
  .array(z.string().trim())
  .max(CONFIRMATION_SAFE_FIELDS_MAX, `must list at most ${CONFIRMATION_SAFE_FIELDS_MAX} fields`)
  .refine((names) => new Set(names).size === names.length, 'must not list a field twice')
  .nullable();
