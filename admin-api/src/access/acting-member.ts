// Who makes a change to a member (their own account included), as the member commands and their
// audit entries need it; the entry such a change writes; and the signed-in member of the operations
// only a sign-in may use. Team, sign-in and account changes all record through here.
import { recordAuditEntry, type AuditActor, type AuditChainKey } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import type { AdminUser, AuditDetails } from '@intake/shared/entities';
import { requestActor } from '../lib/audit-actor.js';
import type { AdminContext } from '../context.js';
import { unauthenticated } from '../errors.js';
import type { Member } from './principal.js';

/** Who changes a member, and what the audit entries say about the request. */
export interface ActingMember {
  caller: Member;
  actor: AuditActor;
  /** The audit chain the change is recorded in. */
  auditChain: AuditChainKey;
  address: string | null;
  requestId: string | null;
}

export async function actingMember({
  em,
  principal,
  clientAddress,
  requestId,
  deps,
}: AdminContext): Promise<ActingMember> {
  if (principal === null) {
    throw unauthenticated();
  }
  return {
    caller: principal.member,
    actor: await requestActor(em, principal, undefined),
    auditChain: deps.services.auditChain,
    address: clientAddress,
    requestId,
  };
}

/**
 * The id of the member signed in (console session or admin token). The permission table keeps API
 * tokens out of the operations that call this; anything else is UNAUTHENTICATED.
 */
export function signedInMemberId({ principal }: AdminContext): string {
  if (principal?.kind !== 'admin') {
    throw unauthenticated();
  }
  return principal.adminId;
}

/** The `member.*` audit entry of a change: the member's e-mail and the details, never a password. */
export async function recordMemberChange(
  tx: Em,
  acting: ActingMember,
  action: string,
  member: Pick<AdminUser, 'id' | 'email'>,
  details: AuditDetails = {},
): Promise<void> {
  await recordAuditEntry(tx, acting.auditChain, {
    actor: acting.actor,
    action,
    objectType: 'Member',
    objectId: member.id,
    details: { email: member.email, ...details },
    outcome: 'success',
    address: acting.address,
    requestId: acting.requestId,
  });
}
