// Signing in with a passkey, alone (no credential listed: the browser offers the passkeys it holds
// for this site, and the passkey must verify the user, two factors in one) or as the second factor
// after a right password (the `login` challenge names the member; only their passkeys answer).
// Starting counts as a sign-in attempt of the address (a right passkey gives it back). Every failure
// is the same UNAUTHENTICATED answer and counts against the caller's address only: an answer anyone
// can forge by naming a credential id (no secret) must not use up the member's own second-factor
// limit and lock them out. The rules and limits: docs/sign-in.md ("Passkeys").
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeySchema, type AdminUser, type Passkey } from '@intake/shared/entities';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { issuePasskeyChallenge, takePasskeyChallenge } from './passkey-challenges.js';
import { answeredChallenge, parseAuthenticationResponse } from './passkey-response.js';
import { descriptors, listPasskeys, recordPasskeyUse, userHandleOf } from './passkeys.js';
import { verifiedCounter } from './verify-assertion.js';
import type { RelyingParty } from './relying-party.js';
import { webAuthn } from './webauthn.js';
import { findChallenge, useChallenge } from '../two-factor/challenges.js';
import { linkAccount, type ProviderAccount } from '../sso/account-link.js';
import type { AdminDeps } from '../../context.js';
import { unauthenticated } from '../../errors.js';
import { loginAttemptKeys } from '../password/login.js';
import { signIn, type LoggedIn } from '../../access/issue-sign-in.js';
import { countCodeAttempt } from '../two-factor/code-attempts.js';

const FAILED = 'Passkey sign-in failed: try again, or sign in another way';

export type PasskeyMethod = 'passkey' | 'password+passkey' | 'oidc+passkey';

export interface PasskeySignInOutcome {
  /** The member the passkey belongs to, once known (for the audit entry, success or not). */
  member: { id: string; email: string } | null;
  method: PasskeyMethod | null;
}

/** Options for `navigator.credentials.get`; with `secondFactorChallenge`, for that member's passkeys only. */
export async function startPasskeySignIn(
  em: Em,
  deps: AdminDeps,
  relyingParty: RelyingParty,
  request: { secondFactorChallenge: string | null; clientAddress: string },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { secondFactorChallenge } = request;
  await countCodeAttempt(deps, [loginAttemptKeys('', request.clientAddress).address]);
  let adminId: string | null = null;
  let allowed: Passkey[] = [];
  if (secondFactorChallenge !== null) {
    const found = await findChallenge(em, secondFactorChallenge);
    allowed = found === null ? [] : await listPasskeys(em, found.adminId);
    if (found === null || allowed.length === 0) {
      throw unauthenticated(FAILED);
    }
    adminId = found.adminId;
  }
  const challenge = await issuePasskeyChallenge(em, 'sign_in', adminId);
  const { generateAuthenticationOptions } = await webAuthn();
  return generateAuthenticationOptions({
    rpID: relyingParty.id,
    challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
    allowCredentials: descriptors(allowed),
    // Alone, the passkey is both factors: it must verify the user. After a password it is the second.
    userVerification: adminId === null ? 'required' : 'preferred',
  });
}

export interface PasskeySignInRequest {
  response: unknown;
  /** The `login` challenge when the passkey is the second factor; null when it signs in alone. */
  secondFactorChallenge: string | null;
  clientAddress: string;
  requestId: string;
}

interface Checked {
  admin: AdminUser;
  passkey: Passkey;
  /** The `login` challenge's id, used up on success. */
  secondFactorChallengeId: string | null;
  /** The provider's account when a single sign-on came before the passkey (linked on success). */
  sso: ProviderAccount | null;
}

/** Who the answer claims to be and what it answers; null when any part is unknown, used or mismatched. */
async function checkClaims(
  em: Em,
  request: PasskeySignInRequest,
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<Checked | null> {
  const taken = await takePasskeyChallenge(em, challenge, 'sign_in');
  const passkey = taken === null ? null : await em.findOne(PasskeySchema, { credentialId: response.id });
  if (taken === null || passkey === null) {
    return null;
  }
  const admin = await em.findOne(AdminUserSchema, { id: passkey.admin.id, status: 'active' });
  // The user handle, when the authenticator sends one, must name the passkey's own member.
  const handle = response.response.userHandle;
  if (
    admin === null ||
    (handle !== undefined && handle !== Buffer.from(userHandleOf(admin.id)).toString('base64url'))
  ) {
    return null;
  }
  if (request.secondFactorChallenge === null) {
    // A challenge issued as a second factor is answered only with the password's challenge beside it.
    return taken.adminId === null ? { admin, passkey, secondFactorChallengeId: null, sso: null } : null;
  }
  const found = await findChallenge(em, request.secondFactorChallenge);
  if (found === null || found.adminId !== admin.id || taken.adminId !== admin.id) {
    return null;
  }
  return { admin, passkey, secondFactorChallengeId: found.id, sso: found.sso };
}

export async function finishPasskeySignIn(
  em: Em,
  deps: AdminDeps,
  relyingParty: RelyingParty,
  request: PasskeySignInRequest,
  outcome: PasskeySignInOutcome,
): Promise<LoggedIn> {
  const { logger } = deps.services;
  const { requestId, clientAddress } = request;
  const { address } = loginAttemptKeys('', clientAddress);
  const response = parseAuthenticationResponse(request.response);
  const challenge = response === null ? null : answeredChallenge(response);
  const checked = challenge === null ? null : await checkClaims(em, request, response!, challenge);
  if (checked === null) {
    await countCodeAttempt(deps, [address]);
    logger.info({ requestId, clientAddress }, 'passkey sign-in failed: no such challenge or passkey');
    throw unauthenticated(FAILED);
  }
  const { admin, passkey, secondFactorChallengeId, sso } = checked;
  outcome.member = { id: admin.id, email: admin.email };
  // Alone, the passkey is both factors: it must have verified the user. After a password it is the second.
  const newCounter = await verifiedCounter(
    relyingParty,
    response!,
    challenge!,
    passkey,
    secondFactorChallengeId === null,
  );
  const used =
    newCounter !== null &&
    (await recordPasskeyUse(em, passkey, newCounter)) &&
    (secondFactorChallengeId === null || (await useChallenge(em, secondFactorChallengeId)));
  if (!used) {
    await countCodeAttempt(deps, [address]);
    logger.info({ requestId, clientAddress }, 'passkey sign-in failed');
    throw unauthenticated(FAILED);
  }
  if (sso !== null) {
    // After a single sign-on: refused (as a failed passkey) when another account was linked meanwhile.
    await linkAccount(em, admin.id, sso).catch(() => {
      throw unauthenticated(FAILED);
    });
  }
  outcome.method = secondFactorChallengeId === null ? 'passkey' : sso === null ? 'password+passkey' : 'oidc+passkey';
  // The attempt startPasskeySignIn counted, and as a second factor the one of the password before it.
  await deps.loginAttempts.release(address);
  if (secondFactorChallengeId !== null) {
    await deps.loginAttempts.reset(loginAttemptKeys(admin.email, clientAddress).account);
    await deps.loginAttempts.release(address);
  }
  return signIn(em, deps, admin, { withPassword: secondFactorChallengeId !== null && sso === null });
}
