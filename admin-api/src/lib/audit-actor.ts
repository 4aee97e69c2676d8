// Who an audit entry names. The name is read from the database at the time of the action (a
// member's e-mail; an API token's name with the e-mail of the member it acts for) and copied into
// the entry, so the log stays readable after the member or the token is gone.
import type { AuditActor } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import { ApiTokenSchema } from '@intake/shared/entities';
import { findSession } from '../access/admin-sessions.js';
import type { Principal } from '../access/principal.js';
import { findAdminByEmail } from '../access/find-admin.js';

export const ANONYMOUS: AuditActor = { kind: 'anonymous', name: 'anonymous' };
/** A failed sign-in for an e-mail that is no administrator's: what was typed is not kept. */
export const UNKNOWN_ACCOUNT: AuditActor = { kind: 'anonymous', name: 'unknown account' };

/** The authenticated caller, or, for the public `logout`, the admin whose session cookie came along. */
export async function requestActor(
  em: Em,
  principal: Principal | null,
  sessionSecret: string | undefined,
): Promise<AuditActor> {
  if (principal?.kind === 'admin') {
    // The member row this request was authenticated with, read at its start.
    return { kind: 'admin', id: principal.adminId, name: principal.member.email };
  }
  if (principal?.kind === 'api_token') {
    const token = await em.findOne(ApiTokenSchema, { id: principal.apiTokenId }, { fields: ['name'] });
    const name = `${token?.name ?? principal.apiTokenId} (${principal.member.email})`;
    return { kind: 'api_token', id: principal.apiTokenId, name };
  }
  const session = sessionSecret === undefined ? null : await findSession(em, sessionSecret);
  return session === null ? ANONYMOUS : { kind: 'admin', id: session.admin.id, name: session.admin.email };
}

/**
 * Who tried to sign in. Only the stored e-mail of an existing account is kept, never the typed
 * value: people type passwords into the e-mail field, and an audit log must not collect them.
 * A failure names the targeted account (kind `anonymous`: nobody proved to be that admin).
 */
export async function loginActor(em: Em, typedEmail: unknown, succeeded: boolean): Promise<AuditActor> {
  if (typeof typedEmail !== 'string') {
    return UNKNOWN_ACCOUNT;
  }
  const admin = await findAdminByEmail(em, typedEmail);
  if (admin === null) {
    return UNKNOWN_ACCOUNT;
  }
  return { kind: succeeded ? 'admin' : 'anonymous', id: admin.id, name: admin.email };
}
