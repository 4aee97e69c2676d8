// Who passkeys are registered for: the WebAuthn relying party. Its id is the host name people reach
// the console at, and every response must come from that origin. PUBLIC_ADMIN_URL says both; without
// it, the origin this request was made to (the admin's own address, through a trusted proxy's
// X-Forwarded-* headers when TRUST_PROXY allows). Browsers refuse passkeys on an IP address, so one
// is refused here with words that say what to do instead.
import { isIP } from 'node:net';
import { badUserInput } from '../../errors.js';

export const RELYING_PARTY_NAME = 'Intake';

export interface RelyingParty {
  /** The host name, without port (WebAuthn's RP ID). */
  id: string;
  /** `scheme://host[:port]`, the only origin whose responses are accepted. */
  origin: string;
  name: string;
}

export function relyingParty(publicAdminUrl: string | undefined, requestOrigin: string): RelyingParty {
  const url = new URL(publicAdminUrl ?? requestOrigin);
  // URL keeps IPv6 hosts in brackets; isIP wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    throw badUserInput(
      'origin',
      'is an IP address, and passkeys need a host name: open the console at http://localhost:<port> or set PUBLIC_ADMIN_URL',
    );
  }
  return { id: url.hostname, origin: url.origin, name: RELYING_PARTY_NAME };
}
