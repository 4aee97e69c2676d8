// The check of a passkey's answer to a sign-in or a confirmation, by @simplewebauthn/server: the
// challenge, the origin, the relying party id, the signature with the stored public key, user
// verification when asked, and a counter that grew (where the authenticator keeps one).
import type { Passkey } from '@intake/shared/entities';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { asCredential } from './passkeys.js';
import type { RelyingParty } from './relying-party.js';
import { webAuthn } from './webauthn.js';

/** The authenticator's new counter when every check holds; null otherwise (never a library error). */
export async function verifiedCounter(
  relyingParty: RelyingParty,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: Passkey,
  requireUserVerification: boolean,
): Promise<number | null> {
  const { verifyAuthenticationResponse } = await webAuthn();
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: asCredential(passkey),
      requireUserVerification,
    });
    return verified ? authenticationInfo.newCounter : null;
  } catch {
    // A wrong signature, origin or RP ID, or a counter that did not grow (a cloned authenticator).
    return null;
  }
}
