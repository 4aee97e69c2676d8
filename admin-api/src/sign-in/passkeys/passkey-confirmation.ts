// Confirming a sign-in with a passkey (docs/sign-in.md#recent-sign-in): options that list only the
// signed-in member's passkeys, and the check of the browser's answer to them. The passkey must
// verify the user (PIN, fingerprint), as when it signs in alone. Starting counts as an attempt of
// the caller's address (a right answer gives it back); a wrong answer counts against that address
// only, never the member (as at sign-in: an answer naming a credential id is easy to forge).
import type { Em } from '@intake/shared/db';
import { PasskeySchema } from '@intake/shared/entities';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { issuePasskeyChallenge, takePasskeyChallenge } from './passkey-challenges.js';
import { answeredChallenge, parseAuthenticationResponse } from './passkey-response.js';
import { descriptors, listPasskeys, recordPasskeyUse, userHandleOf } from './passkeys.js';
import type { RelyingParty } from './relying-party.js';
import { verifiedCounter } from './verify-assertion.js';
import { webAuthn } from './webauthn.js';
import type { AdminDeps } from '../../context.js';
import { badUserInput } from '../../errors.js';
import { loginAttemptKeys } from '../password/login.js';
import { countCodeAttempt } from '../two-factor/code-attempts.js';

/** Options for `navigator.credentials.get` that only this member's passkeys answer. */
export async function startPasskeyConfirmation(
  em: Em,
  deps: AdminDeps,
  relyingParty: RelyingParty,
  request: { adminId: string; clientAddress: string },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = await listPasskeys(em, request.adminId);
  if (passkeys.length === 0) {
    throw badUserInput('passkey', 'cannot confirm your sign-in: you have no passkey');
  }
  await countCodeAttempt(deps, [loginAttemptKeys('', request.clientAddress).address]);
  const challenge = await issuePasskeyChallenge(em, 'confirmation', request.adminId);
  const { generateAuthenticationOptions } = await webAuthn();
  return generateAuthenticationOptions({
    rpID: relyingParty.id,
    challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
    allowCredentials: descriptors(passkeys),
    userVerification: 'required',
  });
}

/** Checks the answer to startPasskeyConfirmation's options; BAD_USER_INPUT on `passkeyResponse` otherwise. */
export async function verifyPasskeyConfirmation(
  em: Em,
  deps: AdminDeps,
  relyingParty: RelyingParty,
  request: { adminId: string; clientAddress: string; answer: unknown },
): Promise<void> {
  const { adminId } = request;
  const { address } = loginAttemptKeys('', request.clientAddress);
  const response = parseAuthenticationResponse(request.answer);
  const challenge = response === null ? null : answeredChallenge(response);
  const taken = challenge === null ? null : await takePasskeyChallenge(em, challenge, 'confirmation');
  const passkey =
    taken?.adminId === adminId ? await em.findOne(PasskeySchema, { credentialId: response!.id, admin: adminId }) : null;
  const handle = response?.response.userHandle;
  const handleMatches = handle === undefined || handle === Buffer.from(userHandleOf(adminId)).toString('base64url');
  const newCounter =
    passkey === null || !handleMatches
      ? null
      : await verifiedCounter(relyingParty, response!, challenge!, passkey, true);
  if (newCounter === null || !(await recordPasskeyUse(em, passkey!, newCounter))) {
    await countCodeAttempt(deps, [address]);
    throw badUserInput('passkeyResponse', 'was not accepted: try again, or confirm another way');
  }
  await deps.loginAttempts.release(address);
}
