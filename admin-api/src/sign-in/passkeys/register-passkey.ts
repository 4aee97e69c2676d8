// Registering a passkey for the signed-in member (docs/sign-in.md): options for the browser's
// `navigator.credentials.create`, then its answer checked by @simplewebauthn/server (challenge,
// origin, RP ID, user verification) and stored. Passkeys are discoverable (resident) and verify
// the user, so one signs in alone, without a password.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeySchema, type Passkey } from '@intake/shared/entities';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { PublicKeyCredentialCreationOptionsJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { issuePasskeyChallenge, takePasskeyChallenge } from './passkey-challenges.js';
import { answeredChallenge, parseRegistrationResponse } from './passkey-response.js';
import { descriptors, listPasskeys, userHandleOf } from './passkeys.js';
import type { RelyingParty } from './relying-party.js';
import { webAuthn } from './webauthn.js';
import { badUserInput, unauthenticated } from '../../errors.js';

/** Enough for a phone, a laptop and a few security keys; a bound keeps the sign-in options small. */
export const PASSKEYS_MAX = 10;

const NOT_AN_ANSWER = 'is not the answer to a passkey registration of yours in progress: start again';

export async function startPasskeyRegistration(
  em: Em,
  relyingParty: RelyingParty,
  adminId: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const admin = await em.findOne(AdminUserSchema, { id: adminId, status: 'active' });
  if (admin === null) {
    throw unauthenticated();
  }
  const existing = await listPasskeys(em, adminId);
  if (existing.length >= PASSKEYS_MAX) {
    throw badUserInput('passkey', `cannot be added: you have ${PASSKEYS_MAX}, remove one first`);
  }
  const challenge = await issuePasskeyChallenge(em, 'registration', adminId);
  const { generateRegistrationOptions } = await webAuthn();
  return generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    userName: admin.email,
    userDisplayName: admin.name || admin.email,
    userID: userHandleOf(admin.id),
    challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
    attestationType: 'none',
    excludeCredentials: descriptors(existing),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** The browser's answer, checked against the registration this member started; never throws a library error. */
async function verifyAnswer(
  em: Em,
  relyingParty: RelyingParty,
  adminId: string,
  answer: unknown,
): Promise<VerifiedRegistrationResponse['registrationInfo']> {
  const response = parseRegistrationResponse(answer);
  const challenge = response === null ? null : answeredChallenge(response);
  const taken = challenge === null ? null : await takePasskeyChallenge(em, challenge, 'registration');
  if (response === null || challenge === null || taken?.adminId !== adminId) {
    throw badUserInput('response', NOT_AN_ANSWER);
  }
  const { verifyRegistrationResponse } = await webAuthn();
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true,
    });
    if (verification.verified) {
      return verification.registrationInfo;
    }
  } catch {
    // The library's message may quote the answer; the member is told what to do instead.
  }
  throw badUserInput('response', 'was not accepted by the passkey checks: try again, or use another passkey');
}

/** Stores the passkey the browser made for the registration this member started. */
export async function finishPasskeyRegistration(
  em: Em,
  relyingParty: RelyingParty,
  adminId: string,
  name: string,
  answer: unknown,
): Promise<Passkey> {
  const info = await verifyAnswer(em, relyingParty, adminId, answer);
  if ((await listPasskeys(em, adminId)).length >= PASSKEYS_MAX) {
    throw badUserInput('passkey', `cannot be added: you have ${PASSKEYS_MAX}, remove one first`);
  }
  const { credential } = info!;
  try {
    const passkey = em.create(PasskeySchema, {
      admin: em.getReference(AdminUserSchema, adminId),
      name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? null,
      backedUp: info!.credentialBackedUp,
    });
    await em.flush();
    return passkey;
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw badUserInput('response', 'is a passkey already registered');
    }
    throw error;
  }
}
