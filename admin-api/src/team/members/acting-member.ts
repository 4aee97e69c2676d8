// Who makes a change to a member (their own account included), as the member commands and their
// audit entries need it; and the signed-in member of the operations only a sign-in may use.
import { requestActor } from '../../lib/audit-actor.js';
import type { ActingMember } from './member-rules.js';
import type { AdminContext } from '../../context.js';
import { unauthenticated } from '../../errors.js';

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
