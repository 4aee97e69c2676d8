// Verifies the signature of a webhook Intake sent (docs/webhooks.md): the Standard Webhooks scheme,
// HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64 part of the
// `whsec_` secret, sent as `v1,<base64>` (several, space-separated, while a secret is rotated).
// The delivery worker signs with worker/src/delivery/sign.ts; the tests verify its deliveries with this.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers as a Fetch `Headers`, or a plain object as Node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyOptions {
  /** Largest difference, in seconds, between the timestamp and now (default 300): refuses replays. */
  toleranceSeconds?: number;
  /** Now, in milliseconds (for tests). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
}

/**
 * The HMAC key of a `whsec_` secret. An empty key would make anyone's signature valid (an unset
 * environment variable read as ''), so a missing or empty one throws instead of answering false.
 */
function signingKey(secret: unknown): Buffer {
  const hint = 'pass the whsec_… secret of the webhook';
  if (typeof secret !== 'string') {
    const got = secret === null ? 'null' : typeof secret;
    throw new TypeError(`verifyWebhook: the webhook signing secret is missing (got ${got}); ${hint}`);
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) {
    throw new TypeError(`verifyWebhook: the webhook signing secret is empty; ${hint}`);
  }
  return key;
}

/**
 * True when `rawBody` (exactly the bytes received: verify before parsing) was signed with `secret`
 * within the tolerance; false otherwise, whatever is wrong. Throws a TypeError when `secret` is
 * missing or empty: a receiver without its secret is misconfigured, not sent a bad webhook.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyOptions = {},
): boolean {
  const key = signingKey(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) {
    return false;
  }
  const now = (options.now ?? Date.now()) / 1000;
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    return false;
  }
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
