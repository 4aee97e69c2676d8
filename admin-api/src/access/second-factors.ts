// Which second factors a member holds: a confirmed TOTP secret, passkeys. Who the caller is
// (principal.ts) and what they may confirm with depend on it, as do sign-in and the member lists.
import type { Em } from '@intake/shared/db';
import { PasskeySchema, type AdminUser } from '@intake/shared/entities';

/** Whether the member has confirmed an authenticator app (TOTP). */
export function hasSecondFactor(admin: Pick<AdminUser, 'totpSecret'>): boolean {
  return admin.totpSecret !== null && admin.totpSecret !== undefined;
}

export async function hasPasskey(em: Em, adminId: string): Promise<boolean> {
  return (await em.count(PasskeySchema, { admin: adminId })) > 0;
}
