// zod schemas of a form's notification addresses and of a webhook's description (their bounds are
// @intake/contract's).
import { DESCRIPTION_MAX_LENGTH, NOTIFY_EMAILS_MAX } from '@intake/contract';
import { z } from 'zod';
import { fail, isPlainText } from './text.js';

const EMAIL_MAX_LENGTH = 254;

// A plain address (no display name, no comments, nothing that could break out of a header).
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** An optional description: trimmed, at most 500 characters; null or empty means none. */
export const description = z
  .string()
  .nullable()
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()))
  .refine((text) => text === null || isPlainText(text), 'must not contain control characters')
  .refine(
    (text) => text === null || [...text].length <= DESCRIPTION_MAX_LENGTH,
    `must be at most ${DESCRIPTION_MAX_LENGTH} characters`,
  );

/** A form's notification addresses: at most 10 plain addresses, deduplicated; null or [] means none. */
export const notifyEmails = z
  .array(z.string())
  .nullable()
  .transform((values, context): string[] | null => {
    if (values === null || values.length === 0) {
      return null;
    }
    if (values.length > NOTIFY_EMAILS_MAX) {
      return fail(context, `must list at most ${NOTIFY_EMAILS_MAX} addresses`);
    }
    const result: string[] = [];
    const seen = new Set<string>();
    for (const value of values) {
      const address = value.trim();
      if (address.length > EMAIL_MAX_LENGTH || !EMAIL.test(address)) {
        // The caller's own argument, cut so the message stays short.
        return fail(context, `contains an invalid e-mail address "${address.slice(0, 100)}"`);
      }
      if (!seen.has(address.toLowerCase())) {
        seen.add(address.toLowerCase());
        result.push(address);
      }
    }
    return result;
  });
