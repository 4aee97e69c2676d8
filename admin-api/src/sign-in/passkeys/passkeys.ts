// A member's stored passkeys, as the WebAuthn library wants them, and the signature counter's update.
import type { Em } from '@intake/shared/db';
import { PasskeySchema, type Passkey } from '@intake/shared/entities';
import type { AuthenticatorTransportFuture, WebAuthnCredential } from '@simplewebauthn/server';

export async function listPasskeys(em: Em, adminId: string): Promise<Passkey[]> {
  return em.find(PasskeySchema, { admin: adminId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export function asCredential(passkey: Passkey): WebAuthnCredential {
  return {
    id: passkey.credentialId,
    publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
    counter: passkey.counter,
    transports: (passkey.transports ?? []) as AuthenticatorTransportFuture[],
  };
}

/** The credentials a ceremony names (to exclude at registration, to allow at a second-factor sign-in). */
export function descriptors(passkeys: readonly Passkey[]) {
  return passkeys.map((passkey) => ({
    id: passkey.credentialId,
    transports: (passkey.transports ?? []) as AuthenticatorTransportFuture[],
  }));
}

/**
 * Records a sign-in's counter, only if the stored one is still the one the signature was checked
 * against: of two sign-ins with one response, or with a cloned authenticator, one wins.
 */
export async function recordPasskeyUse(
  em: Em,
  passkey: Passkey,
  newCounter: number,
  now = new Date(),
): Promise<boolean> {
  const updated = await em.nativeUpdate(
    PasskeySchema,
    { id: passkey.id, counter: passkey.counter },
    { counter: newCounter, lastUsedAt: now },
  );
  return updated === 1;
}

/** The WebAuthn user handle of a member: their id's 16 bytes, so an authenticator keeps one passkey per member. */
export function userHandleOf(adminId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(adminId.replaceAll('-', ''), 'hex'));
}
