// Full check of a presented site token: decode, look the site up, compare the control code.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SiteTokenCodec } from './codec.js';
import { isSiteTokenError, type SiteTokenErrorReason } from './errors.js';
import { isUuid } from './uuid.js';

export interface SiteRecord {
  id: string;
  controlCode: string;
  deletedAt?: Date | null;
}

export type SiteTokenFailureReason = SiteTokenErrorReason | 'unknown_site' | 'deleted_site' | 'rotated';

export type SiteTokenVerification<S extends SiteRecord> =
  { ok: true; site: S } | { ok: false; reason: SiteTokenFailureReason };

/**
 * Every `ok: false` is a 403 token_invalid for the client; the reason is for logs and tests.
 * An error thrown by `lookupSite` (database down) is NOT a token failure and propagates, so the
 * gateway can answer 503 instead of blaming the token.
 */
export async function verifySiteToken<S extends SiteRecord>(
  codec: SiteTokenCodec,
  token: string,
  lookupSite: (siteId: string) => Promise<S | null>,
): Promise<SiteTokenVerification<S>> {
  let siteId: string;
  let controlCode: string;
  try {
    ({ siteId, controlCode } = codec.decode(token));
  } catch (error) {
    if (isSiteTokenError(error)) {
      return { ok: false, reason: error.reason };
    }
    throw error;
  }
  // decode already insists on a UUID; checked again because this is what keeps junk out of the query.
  if (!isUuid(siteId)) {
    return { ok: false, reason: 'payload' };
  }
  const site = await lookupSite(siteId);
  if (site === null || site === undefined) {
    return { ok: false, reason: 'unknown_site' };
  }
  if (site.deletedAt !== null && site.deletedAt !== undefined) {
    return { ok: false, reason: 'deleted_site' };
  }
  if (!sameSecret(controlCode, site.controlCode)) {
    return { ok: false, reason: 'rotated' };
  }
  return { ok: true, site };
}

/** Constant time: comparing fixed-length digests leaks neither content nor length. */
function sameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
