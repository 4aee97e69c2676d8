// zod schemas of webhook and notification arguments.
import { assertAllowedHost } from '@intake/shared/delivery';
import { z } from 'zod';
import { fail, isPlainText } from './fields.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 500;
export const NOTIFY_EMAILS_MAX = 10;
const EMAIL_MAX_LENGTH = 254;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// A plain address (no display name, no comments, nothing that could break out of a header).
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

// Names the setting that lifts the rule (a newcomer's receiver on localhost is the usual case), and
// nothing of the URL or the server.
const PRIVATE_ADDRESS =
  'must not point to a loopback, private, link-local or reserved address ' +
  '(the setting WEBHOOK_ALLOW_PRIVATE=true allows them: for tests and trusted networks only)';
const NOT_HTTP = 'must be an absolute http:// or https:// URL';

/**
 * A webhook URL: absolute http(s), no user name or password, no fragment. Unless private
 * addresses are allowed, an IP literal or `localhost` that the delivery guard would refuse is
 * refused now already (names are checked again, after resolution, at every delivery).
 */
export function webhookUrl(allowPrivate: boolean, whenNull = 'is required') {
  const tooLong = `must be a URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  return z
    .string({ error: whenNull })
    .trim()
    .min(1, 'is required')
    .transform((text, context): string => {
      if (text.length > WEBHOOK_URL_MAX_LENGTH || CONTROL_CHARACTERS.test(text)) {
        return fail(context, tooLong);
      }
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return fail(context, NOT_HTTP);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
        return fail(context, NOT_HTTP);
      }
      if (url.username !== '' || url.password !== '') {
        return fail(context, 'must not contain a user name or password');
      }
      if (url.hash !== '') {
        return fail(context, 'must not contain a fragment');
      }
      const host = url.hostname.toLowerCase();
      try {
        assertAllowedHost(host, allowPrivate);
      } catch {
        return fail(context, PRIVATE_ADDRESS);
      }
      if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
        return fail(context, PRIVATE_ADDRESS);
      }
      return url.href.length > WEBHOOK_URL_MAX_LENGTH ? fail(context, tooLong) : url.href;
    });
}

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
