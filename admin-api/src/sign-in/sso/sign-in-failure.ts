// Why a single sign-on attempt ended without a session: one stable code per reason. The code goes to
// the sign-in page (`/sign-in?error=<code>`, which words it), to the audit entry and to the log line;
// never the provider's message, a token, the authorization code or what the provider sent.
import * as oidc from 'openid-client';

export const SSO_FAILURES = [
  /** Single sign-on is not configured. */
  'sso_not_configured',
  /** The provider could not be reached, or its metadata or answer is unusable. */
  'sso_provider_unavailable',
  /** The person cancelled, or the provider refused, at the provider. */
  'sso_provider_refused',
  /** Too many sign-in attempts from this address (the limit passwords count against too); nothing was written. */
  'sso_rate_limited',
  /** No flow cookie (expired, another browser), or the state differs from the one sent. */
  'sso_state_mismatch',
  /** The ID token's nonce is not the one of this flow. */
  'sso_nonce_mismatch',
  /** The provider refused the code: expired, used already, or for another client. */
  'sso_code_invalid',
  /** The ID token failed a check: issuer, audience, expiry, signature. */
  'sso_token_invalid',
  /** The provider did not vouch for the e-mail address (`email_verified` is not true), or sent none. */
  'sso_email_unverified',
  /** The e-mail's domain is not in OIDC_ALLOWED_DOMAINS. */
  'sso_domain_not_allowed',
  /** Nobody of the team has that e-mail, and OIDC_NEW_MEMBERS is `refuse`. */
  'sso_unknown_member',
  /** The member is disabled. */
  'sso_member_disabled',
  /** The member is invited, and the invitation expired (72 hours after it was sent). */
  'sso_invitation_expired',
  /**
   * The member is linked to another account at the provider, or this account to another member
   * (account-link.ts).
   */
  'sso_account_mismatch',
  /** The sign-in's audit entry could not be written, so nobody was signed in (try again). */
  'sso_not_recorded',
] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

/** An expected refusal, carried from where it is found to the callback route. */
export class SsoSignInError extends Error {
  constructor(readonly reason: SsoFailure) {
    super(`single sign-on refused: ${reason}`);
    this.name = 'SsoSignInError';
  }
}

/** The check that failed, as oauth4webapi describes it under openid-client's wrapping error. */
function innermost(error: unknown): { message: string; claim: unknown } {
  const original = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = original instanceof Error ? original.message : '';
  const claim = original instanceof Error ? (original.cause as { claim?: unknown } | undefined)?.claim : undefined;
  return { message, claim };
}

/**
 * The reason behind an error of openid-client's authorization code grant. The library's error
 * codes say which kind of check failed; the error it wraps names the claim or parameter.
 */
export function failureOfLibraryError(error: unknown): SsoFailure {
  if (error instanceof SsoSignInError) {
    return error.reason;
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return 'sso_provider_refused';
  }
  if (error instanceof oidc.ResponseBodyError) {
    return error.error === 'invalid_grant' ? 'sso_code_invalid' : 'sso_provider_unavailable';
  }
  const code = (error as { code?: unknown } | null)?.code;
  const { message, claim } = innermost(error);
  switch (code) {
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      return claim === 'nonce' ? 'sso_nonce_mismatch' : 'sso_token_invalid';
    case 'OAUTH_INVALID_RESPONSE':
      return /"state"/.test(message) ? 'sso_state_mismatch' : 'sso_token_invalid';
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
    case 'OAUTH_KEY_SELECTION_FAILED':
      return 'sso_token_invalid';
    default:
      return 'sso_provider_unavailable';
  }
}
