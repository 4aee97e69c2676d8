// Who passkeys are registered for: the WebAuthn relying party. Its id is the host name people reach
// the console at, and every response must come from that origin: the admin's public origin
// (PUBLIC_ADMIN_URL, else PUBLIC_URL, else the origin this request was made to; http/public-origins.ts).
// Browsers refuse passkeys on an IP address, so one is refused here with words that say what to do.
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

export function relyingParty(adminOrigin: string): RelyingParty {
  const url = new URL(adminOrigin);
  // URL keeps IPv6 hosts in brackets; isIP wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    throw badUserInput(
      'origin',
      'is an IP address, and passkeys need a host name: open the console at http://localhost:<port> or set PUBLIC_URL (or PUBLIC_ADMIN_URL) to its host name',
    );
  }
  return { id: url.hostname, origin: url.origin, name: RELYING_PARTY_NAME };
}
