import { describe, expect, it } from '@jest/globals';
import { WebAuthnError } from '@simplewebauthn/browser';
import { ceremonyFailure } from './passkey-ceremony.js';

/** What @simplewebauthn/browser throws when the browser refuses: its own error, the DOMException as cause. */
function refused(name: string, code: WebAuthnError['code'] = 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY'): WebAuthnError {
  return new WebAuthnError({ message: 'refused', code, cause: new DOMException('refused', name) });
}

describe('ceremonyFailure', () => {
  it('says a cancelled or timed-out ceremony was, whether the library wrapped the refusal or not', () => {
    const cancelled = 'The passkey request was cancelled or timed out, or no passkey for this site was chosen.';
    expect(ceremonyFailure(refused('NotAllowedError'))).toBe(cancelled);
    expect(ceremonyFailure(new DOMException('gone', 'NotAllowedError'))).toBe(cancelled);
    expect(ceremonyFailure(refused('AbortError', 'ERROR_CEREMONY_ABORTED'))).toBe(cancelled);
  });

  it('names what the person can do about a device that holds one already or an address passkeys refuse', () => {
    expect(ceremonyFailure(refused('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'))).toMatch(
      /already holds one of your passkeys/,
    );
    expect(ceremonyFailure(refused('SecurityError', 'ERROR_INVALID_DOMAIN'))).toMatch(/host name/);
    expect(ceremonyFailure(new DOMException('no', 'NotSupportedError'))).toMatch(/does not support passkeys/);
  });

  it('falls back to a sentence, never the raw error, for anything else', () => {
    expect(ceremonyFailure(new TypeError('options.challenge is undefined'))).toBe(
      'The browser could not complete the passkey request. Try again.',
    );
    expect(ceremonyFailure('not even an error')).toBe('The browser could not complete the passkey request. Try again.');
  });
});
