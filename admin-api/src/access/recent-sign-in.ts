// Recent sign-in ("sudo mode", docs/sign-in.md#recent-sign-in): the operations marked `recentSignIn`
// in the permission table add a way in or change how the team signs in, so a session or admin token
// must have been started within RECENT_SIGN_IN_SECONDS by a sign-in or by `confirmSignIn` (the
// password, a code or a passkey). Someone holding a copied cookie or token, without those, gets
// RECENT_SIGN_IN_REQUIRED. The extension `methods` says what this member can confirm with: sign-in
// knows them (sign-in/confirmation/proof-methods.ts), and app.ts hands them to the guard.
import type { Em } from '@intake/shared/db';

/** Ten minutes: long enough to finish what the confirmation was for, short for a stolen session. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

/** What proves it is the member: their password, a code (TOTP or recovery), a passkey, or signing in again through the provider. */
export type ProofMethod = 'password' | 'totp' | 'passkey' | 'sso';

export function signedInRecently(signedInAt: Date, now: Date = new Date()): boolean {
  return now.getTime() - signedInAt.getTime() < RECENT_SIGN_IN_SECONDS * 1000;
}

/** The ways a member can confirm a sign-in, as AdminDeps.proofMethods answers them. */
export type ProofMethods = (em: Em, adminId: string) => Promise<ProofMethod[]>;
