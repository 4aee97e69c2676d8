// The server-side way back in for the day every owner is locked out (`npm run admin`): a new
// password, an account enabled again, or its second factor (passkeys included) removed. Whoever
// runs it already holds the server and its database, so it asks for no sign-in; each use is
// recorded in the audit log as done by the `admin command`, with the account it acted on and never
// the password.
import { recordAuditEntry, systemActor, type AuditChainKey } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser, type AuditDetails } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { endAllSessions } from '../../access/admin-sessions.js';
import { findAdminByEmail } from '../../access/find-admin.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../validation/fields.js';
import { removeSecondFactors } from '../two-factor/reset-member-two-factor.js';

export const ADMIN_COMMAND_ACTOR = systemActor('admin command');

/** Why a chosen password cannot be used, or null. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  return length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH
    ? `the password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`
    : null;
}

async function record(
  em: Em,
  chain: AuditChainKey,
  account: AdminUser,
  action: string,
  details: AuditDetails = {},
): Promise<void> {
  await recordAuditEntry(em, chain, {
    actor: ADMIN_COMMAND_ACTOR,
    action,
    objectType: 'AdminUser',
    objectId: account.id,
    details: { email: account.email, ...details },
    outcome: 'success',
  });
}

/**
 * Gives the account a new password: every admin token and console session it had stops working
 * (its API tokens do not: they were not made from the password). Null when no account has this e-mail.
 */
export async function resetMemberPassword(
  em: Em,
  chain: AuditChainKey,
  email: string,
  password: string,
): Promise<AdminUser | null> {
  return em.transactional(async (tx) => {
    const account = await findAdminByEmail(tx, email);
    if (account === null) {
      return null;
    }
    account.passwordHash = await hashPassword(password);
    // Strictly later than before, even within one millisecond: it is the version tokens carry.
    account.passwordChangedAt = new Date(Math.max(Date.now(), account.passwordChangedAt.getTime() + 1));
    await tx.flush();
    await endAllSessions(tx, account.id);
    await record(tx, chain, account, 'member.passwordReset');
    return account;
  });
}

/**
 * Removes the account's second factor as an owner's reset does (a lost phone and lost codes, with no
 * other owner to reset it): the TOTP secret, the recovery codes and every passkey, so the password
 * alone signs in again. Null when no account has this e-mail.
 */
export async function resetMemberSecondFactor(em: Em, chain: AuditChainKey, email: string): Promise<AdminUser | null> {
  return em.transactional(async (tx) => {
    const account = await findAdminByEmail(tx, email);
    if (account === null) {
      return null;
    }
    const removed = await removeSecondFactors(tx, account);
    await record(tx, chain, account, 'member.twoFactorReset', { ...removed });
    return account;
  });
}

/** Makes a disabled (or invited) account active again. Null when no account has this e-mail. */
export async function enableMember(em: Em, chain: AuditChainKey, email: string): Promise<AdminUser | null> {
  return em.transactional(async (tx) => {
    const account = await findAdminByEmail(tx, email);
    if (account === null) {
      return null;
    }
    await tx.nativeUpdate(AdminUserSchema, { id: account.id }, { status: 'active' });
    await record(tx, chain, account, 'member.enabled');
    return account;
  });
}
