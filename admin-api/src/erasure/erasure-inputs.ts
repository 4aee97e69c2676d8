import {
  ERASURE_IDS_MAX,
  ERASURE_VALUE_MAX_LENGTH,
  ERASURE_VALUE_MIN_LENGTH,
  erasureMatchOf,
} from '@intake/shared/lifecycle';
import { z } from 'zod';
import { fail, id } from '../validation/fields.js';

/** The searched value, as a match: a phone number or anything else (an e-mail address). Never echoed. */
export const erasureValue = z.string().transform((value, context) => {
  const match = erasureMatchOf(value);
  if (match === 'too_short') {
    return fail(context, `must have at least ${ERASURE_VALUE_MIN_LENGTH} characters`);
  }
  if (match === 'too_long') {
    return fail(context, `must have at most ${ERASURE_VALUE_MAX_LENGTH} characters`);
  }
  return match;
});

/** The submissions to erase: 1..ERASURE_IDS_MAX ids (`ids.<n>` names a bad one). */
export const erasureIds = z
  .array(z.string())
  .refine((ids) => ids.length >= 1 && ids.length <= ERASURE_IDS_MAX, `must list 1..${ERASURE_IDS_MAX} submissions`)
  .pipe(z.array(id));
