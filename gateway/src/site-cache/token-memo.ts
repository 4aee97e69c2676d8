// A site backend sends the same long-lived token with every submission, and decoding it (HMAC check,
// AES decryption, strict parsing) was 11 % of a JSON submission's CPU in the bench profile. What a
// token decodes to never changes while the process runs (the keys are fixed at start; rotation is
// judged later, against the site's current control code), so successful decodes are remembered.
//
// Entries are keyed by the SHA-256 of the token, not the token: a lookup's timing then says nothing
// about how much of a presented token matches a real one. Failures are never remembered.
import { createHash } from 'node:crypto';
import type { SiteTokenCodec } from '@intake/shared/site-token';

type Claims = ReturnType<SiteTokenCodec['decode']>;

export function memoizeTokenDecoding(codec: SiteTokenCodec, maxEntries = 1000): SiteTokenCodec {
  const decoded = new Map<string, Readonly<Claims>>();
  return {
    issue: (siteId, controlCode) => codec.issue(siteId, controlCode),
    decode(token) {
      const key = createHash('sha256').update(token, 'utf8').digest('base64');
      const known = decoded.get(key);
      if (known !== undefined) {
        return { ...known };
      }
      const claims = codec.decode(token);
      if (decoded.size >= maxEntries) {
        // Oldest first: a Map iterates in insertion order.
        decoded.delete(decoded.keys().next().value!);
      }
      decoded.set(key, Object.freeze({ ...claims }));
      return claims;
    },
  };
}
