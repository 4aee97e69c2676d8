// Checks of webhook and notification arguments; each returns the normalised value or throws a
// BAD_USER_INPUT error naming the field.
import { assertAllowedHost } from '@intake/shared';
import { badUserInput } from '../schema/errors.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 500;
export const NOTIFY_EMAILS_MAX = 10;
const EMAIL_MAX_LENGTH = 254;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// A plain address (no display name, no comments, nothing that could break out of a header).
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * A webhook URL: absolute http(s), no user name or password, no fragment. Unless private
 * addresses are allowed, an IP literal or `localhost` that the delivery guard would refuse is
 * refused now already (names are checked again, after resolution, at every delivery).
 */
export function parseWebhookUrl(value: string | null | undefined, allowPrivate: boolean, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw badUserInput(field, 'is required');
  }
  const text = value.trim();
  if (text.length > WEBHOOK_URL_MAX_LENGTH || CONTROL_CHARACTERS.test(text)) {
    throw badUserInput(field, `must be a URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badUserInput(field, 'must be an absolute http:// or https:// URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badUserInput(field, 'must be an absolute http:// or https:// URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw badUserInput(field, 'must not contain a user name or password');
  }
  if (url.hash !== '') {
    throw badUserInput(field, 'must not contain a fragment');
  }
  const host = url.hostname.toLowerCase();
  try {
    assertAllowedHost(host, allowPrivate);
  } catch {
    throw badUserInput(field, 'must not point to a loopback, private, link-local or reserved address');
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw badUserInput(field, 'must not point to a loopback, private, link-local or reserved address');
  }
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) {
    throw badUserInput(field, `must be a URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  return url.href;
}

/** An optional description: trimmed, at most 500 characters; null or empty means none. */
export function parseDescription(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined || value.trim() === '') {
    return null;
  }
  const text = value.trim();
  if (!text.isWellFormed() || CONTROL_CHARACTERS.test(text)) {
    throw badUserInput(field, 'must not contain control characters');
  }
  if ([...text].length > DESCRIPTION_MAX_LENGTH) {
    throw badUserInput(field, `must be at most ${DESCRIPTION_MAX_LENGTH} characters`);
  }
  return text;
}

/** A form's notification addresses: at most 10 plain addresses, deduplicated; null or [] means none. */
export function parseNotifyEmails(values: readonly string[] | null, field: string): string[] | null {
  if (values === null || values.length === 0) {
    return null;
  }
  if (values.length > NOTIFY_EMAILS_MAX) {
    throw badUserInput(field, `must list at most ${NOTIFY_EMAILS_MAX} addresses`);
  }
  const result: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const address = value.trim();
    if (address.length > EMAIL_MAX_LENGTH || !EMAIL.test(address)) {
      // The caller's own argument, cut so the message stays short.
      throw badUserInput(field, `contains an invalid e-mail address "${address.slice(0, 100)}"`);
    }
    if (!seen.has(address.toLowerCase())) {
      seen.add(address.toLowerCase());
      result.push(address);
    }
  }
  return result;
}
