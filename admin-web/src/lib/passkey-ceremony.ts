// The browser's half of a passkey ceremony (@simplewebauthn/browser), between the admin API's
// start and finish mutations. The options and the answer cross the API as JSON objects; what the
// browser throws (the person cancelled, no passkey, an address passkeys cannot use) becomes one
// short sentence for an alert, never an uncaught error.
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

export { browserSupportsWebAuthn } from '@simplewebauthn/browser';

/** What the browser answered, as the finish mutations take it. */
export type CeremonyAnswer = Record<string, unknown>;

export async function answerSignIn(options: Record<string, unknown>): Promise<CeremonyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  return { ...(await startAuthentication({ optionsJSON })) };
}

export async function answerRegistration(options: Record<string, unknown>): Promise<CeremonyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  return { ...(await startRegistration({ optionsJSON })) };
}

/**
 * The DOMException's name behind a WebAuthnError (which keeps it as `cause`), or the error's own. Read
 * as a property: a DOMException from another realm (a frame, a test's global) is no `instanceof Error`.
 */
function domName(error: unknown): string {
  const cause: unknown = error instanceof WebAuthnError ? error.cause : error;
  const name: unknown = typeof cause === 'object' && cause !== null ? (cause as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/** Why the browser's side of a ceremony failed, in words for the person at it. */
export function ceremonyFailure(error: unknown): string {
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return 'This device already holds one of your passkeys: add one on another device or security key.';
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return 'Passkeys do not work at this address: open the console at its host name.';
      case 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT':
      case 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT':
        return 'This device or security key cannot hold a passkey that checks who you are (a PIN or fingerprint).';
      default:
        break;
    }
  }
  switch (domName(error)) {
    case 'NotAllowedError':
    case 'AbortError':
      return 'The passkey request was cancelled or timed out, or no passkey for this site was chosen.';
    case 'InvalidStateError':
      return 'This device already holds one of your passkeys.';
    case 'NotSupportedError':
      return 'This browser or device does not support passkeys.';
    case 'SecurityError':
      return 'Passkeys do not work at this address: open the console at its host name.';
    default:
      return 'The browser could not complete the passkey request. Try again.';
  }
}
