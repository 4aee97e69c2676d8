// The checks of a form's cap and schedule (docs/submissions.md#caps-and-a-schedule), shared by the
// admin API's inputs and the command line's setup file. How they fit together (the opening before
// the closing, the address field a declared EMAIL field) is checked with the form as a whole.
import { SUBMISSION_CAP_MAX, SUBMISSION_CAP_MIN } from '@intake/contract';
import { z } from 'zod';
import { wholeNumber } from './text.js';

/** A cap: a whole number of submissions; null: none. */
export const submissionCap = wholeNumber(SUBMISSION_CAP_MIN, SUBMISSION_CAP_MAX).nullable();

/** A moment with its time zone (`2026-12-01T09:00:00Z`, `…+01:00`), read as a Date; null: none. */
export const scheduleTime = z.iso
  .datetime({
    offset: true,
    error: 'must be an ISO 8601 date and time with a time zone, such as 2026-12-01T09:00:00Z',
  })
  .transform((value) => new Date(value))
  .nullable();
