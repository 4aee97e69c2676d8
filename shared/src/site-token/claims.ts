// The encrypted plaintext of a site token: exactly `{"s":"<site uuid>","c":"<control code>"}`.
// Parsing is strict (the bytes must be the canonical serialisation) so that a token decrypted under
// the wrong key, or minted by anything but `issue`, cannot slip through with a lucky shape.
import { SiteTokenError } from './errors.js';
import { isUuid } from './uuid.js';

export interface SiteTokenClaims {
  siteId: string;
  controlCode: string;
}

const MAX_CONTROL_CODE_LENGTH = 256;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function isControlCode(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CONTROL_CODE_LENGTH;
}

/** Serialises the claims; a bad argument is a programming error, reported without its value. */
export function serializeSiteClaims({ siteId, controlCode }: SiteTokenClaims): string {
  if (!isUuid(siteId)) {
    throw new TypeError('Site token: siteId must be a UUID');
  }
  if (!isControlCode(controlCode)) {
    throw new TypeError(`Site token: controlCode must be a string of 1 to ${MAX_CONTROL_CODE_LENGTH} characters`);
  }
  return JSON.stringify({ s: siteId, c: controlCode });
}

/** Parses decrypted bytes; anything but the exact shape is 'payload'. */
export function parseSiteClaims(plaintext: Buffer): SiteTokenClaims {
  let text: string;
  let parsed: unknown;
  try {
    text = utf8.decode(plaintext);
    parsed = JSON.parse(text);
  } catch {
    throw new SiteTokenError('payload');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SiteTokenError('payload');
  }
  const { s, c } = parsed as Record<string, unknown>;
  if (!isUuid(s) || !isControlCode(c) || JSON.stringify({ s, c }) !== text) {
    throw new SiteTokenError('payload');
  }
  return { siteId: s, controlCode: c };
}
