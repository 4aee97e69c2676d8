// A member names and removes their own passkeys; nobody else's (the id of another member's passkey
// answers as if it did not exist).
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeySchema, type Passkey } from '@intake/shared/entities';
import { requireFactorLeftWhenHeld } from '../../access/held-by-policy.js';
import { hasSecondFactor } from '../../access/second-factors.js';
import { notFound } from '../../errors.js';

async function ownPasskey(em: Em, adminId: string, id: string): Promise<Passkey> {
  const passkey = await em.findOne(PasskeySchema, { id, admin: adminId });
  if (passkey === null) {
    throw notFound('Passkey');
  }
  return passkey;
}

export async function renamePasskey(em: Em, adminId: string, id: string, name: string): Promise<Passkey> {
  const passkey = await ownPasskey(em, adminId, id);
  passkey.name = name;
  await em.flush();
  return passkey;
}

/** Removes the passkey: it signs in no more, even if the authenticator still holds it. Never the last factor of a held member. */
export async function removePasskey(em: Em, adminId: string, id: string): Promise<void> {
  const passkey = await ownPasskey(em, adminId, id);
  const admin = await em.findOneOrFail(AdminUserSchema, { id: adminId });
  await requireFactorLeftWhenHeld(em, adminId, { totp: hasSecondFactor(admin), passkeysRemoved: 1 });
  await em.nativeDelete(PasskeySchema, { id: passkey.id });
}
