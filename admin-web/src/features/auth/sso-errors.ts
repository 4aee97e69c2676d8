// The reasons the admin API gives when single sign-on ends without a session (`/sign-in?error=<code>`,
// admin-api/src/sign-in/sso/sign-in-failure.ts), in words for the person who tried.
const MESSAGES: Record<string, string> = {
  sso_not_configured: 'Single sign-on is not set up on this server. Sign in with your password.',
  sso_provider_unavailable:
    'The identity provider could not be reached. Try again in a moment; if it goes on, tell an owner.',
  sso_provider_refused: 'Signing in was cancelled or refused at the identity provider.',
  sso_rate_limited: 'Too many sign-in attempts from your network. Wait a few minutes, then try again.',
  sso_state_mismatch: 'That sign-in attempt expired or was started in another browser or tab. Try again.',
  sso_nonce_mismatch: "The identity provider's answer did not pass the security checks. Try again.",
  sso_token_invalid: "The identity provider's answer did not pass the security checks. Try again.",
  sso_code_invalid: 'That sign-in was already used or took too long. Try again.',
  sso_email_unverified:
    'Your identity provider did not confirm your e-mail address, so it cannot be matched to a member.',
  sso_domain_not_allowed: 'Your e-mail domain may not sign in with single sign-on here.',
  sso_unknown_member: 'Nobody in this team has your e-mail address. Ask an owner or an admin to invite you.',
  sso_member_disabled: 'Your account is disabled. Ask an owner or an admin to enable it again.',
  sso_invitation_expired: 'Your invitation has expired. Ask an owner or an admin to send it again.',
  sso_account_mismatch:
    'Your account here is linked to another account at the identity provider. Ask an owner to unlink it.',
  sso_not_recorded: 'Intake could not record this sign-in, so you were not signed in. Try again in a moment.',
};

/** The sentence for an `error` parameter, or null when there is none (unknown codes get a general one). */
export function ssoErrorMessage(code: string | null): string | null {
  if (code === null || code === '') {
    return null;
  }
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : 'Single sign-on did not work. Try again.';
}
