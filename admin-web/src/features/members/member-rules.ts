// What the Members page offers on each row, from the signed-in member's role (docs/teams.md): an
// admin is offered nothing that touches an owner or makes one, and nobody changes their own access,
// disables or removes themselves from here. The API checks the same rules (and refuses the last
// owner's demotion).
import type { MemberRole, MemberStatus, SiteGrantLevel } from '../../gql/graphql';
import { LEVEL_LABELS } from '../../lib/roles';

export interface MemberActions {
  /** Change role and site access. */
  changeAccess: boolean;
  /** Disable an active member, enable a disabled one. */
  disable: boolean;
  remove: boolean;
  /** Resend or revoke the invitation of an invited member (revoking removes them). */
  invitation: boolean;
  /** Unlink their account at the identity provider: owners only, for a linked member. */
  unlinkSso: boolean;
}

const NONE: MemberActions = { changeAccess: false, disable: false, remove: false, invitation: false, unlinkSso: false };

export function memberActions(
  caller: { id: string; role: MemberRole },
  target: { id: string; role: MemberRole; status: MemberStatus; ssoLinked: boolean },
): MemberActions {
  if (caller.role !== 'owner' && target.role === 'owner') {
    return NONE;
  }
  const unlinkSso = caller.role === 'owner' && target.ssoLinked;
  if (target.status === 'invited') {
    return { changeAccess: true, disable: false, remove: false, invitation: true, unlinkSso };
  }
  const self = caller.id === target.id;
  return { changeAccess: !self, disable: !self, remove: !self, invitation: false, unlinkSso };
}

/** The roles the caller may give: an admin makes admins and members, never owners. */
export function assignableRoles(callerRole: MemberRole): MemberRole[] {
  return callerRole === 'owner' ? ['owner', 'admin', 'member'] : ['admin', 'member'];
}

/** A member's site access in a few words: `Every site`, `No sites`, or `Shop (read), Blog (manage)`. */
export function describeAccess(
  role: MemberRole,
  grants: readonly { level: SiteGrantLevel; site: { name: string } }[],
  decode: (text: string) => string = (text) => text,
): string {
  if (role !== 'member') {
    return 'Every site';
  }
  if (grants.length === 0) {
    return 'No sites';
  }
  return grants.map((grant) => `${decode(grant.site.name)} (${LEVEL_LABELS[grant.level].toLowerCase()})`).join(', ');
}

/**
 * Whether the caller may send the target a password reset link or reset their second factor: an
 * owner anyone active but themselves, an admin active members only (their own account has its pages).
 */
export function canResetSignIn(
  caller: { id: string; role: MemberRole },
  target: { id: string; role: MemberRole; status: MemberStatus },
): boolean {
  if (target.status !== 'active' || caller.id === target.id) {
    return false;
  }
  return caller.role === 'owner' || (caller.role === 'admin' && target.role === 'member');
}
