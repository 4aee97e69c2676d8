// Brute-force limits of password checks: guesses at one account from one address, guesses from one
// address at any account (password spraying), current-password checks of one admin, and uses of
// invitation links (looking one up, accepting one) from one address, so tokens cannot be guessed. Windows
// are 15 minutes; counters live in memory, or in Redis when REDIS_URL is set (see attempt-limiter.ts).
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS = 10;
export const LOGIN_MAX_PER_ADDRESS = 100;
export const PASSWORD_CHANGE_MAX_ATTEMPTS = 10;
export const INVITATION_MAX_PER_ADDRESS = 50;
/** Reset e-mails asked for one address (whatever asks), and asks from one client address. */
export const PASSWORD_RESET_MAX_PER_ACCOUNT = 3;
export const PASSWORD_RESET_MAX_PER_ADDRESS = 20;
/** Uses of reset links (any token, right or wrong) from one client address. */
export const PASSWORD_RESET_USES_PER_ADDRESS = 50;
/** Wrong second-factor codes of one member, from any address (sign-in, enrolment, turning it off). */
export const SECOND_FACTOR_MAX_ATTEMPTS = 20;

/** The limits an attempt counts against, with their most attempts per window. */
export const LOGIN_LIMITS = {
  'login-account': LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS,
  'login-address': LOGIN_MAX_PER_ADDRESS,
  'change-password': PASSWORD_CHANGE_MAX_ATTEMPTS,
  'invitation-address': INVITATION_MAX_PER_ADDRESS,
  'second-factor': SECOND_FACTOR_MAX_ATTEMPTS,
  'password-reset-account': PASSWORD_RESET_MAX_PER_ACCOUNT,
  'password-reset-address': PASSWORD_RESET_MAX_PER_ADDRESS,
  'password-reset-use': PASSWORD_RESET_USES_PER_ADDRESS,
} as const;

export type LoginLimit = keyof typeof LOGIN_LIMITS;

/** E-mail addresses are compared trimmed and in lower case (ensureAdmin stores them so). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
