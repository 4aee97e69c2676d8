// The rules every change to a member follows, shared by create, update and remove:
// - only an owner makes, changes, disables or removes an owner (an admin gets FORBIDDEN);
// - the team never loses its last active owner (BAD_USER_INPUT naming the field that would do it):
//   the active owners are locked for the transaction, so two owners demoting each other at once
//   cannot both succeed;
// - grants name live sites only, and only a `member` has grants;
// - each change is recorded as a `member.*` audit entry (recordMemberChange, access/acting-member.ts).
import type { Em } from '@intake/shared/db';
import {
  AdminUserSchema,
  ApiTokenSchema,
  MemberSiteGrantSchema,
  SiteSchema,
  type AdminUser,
  type MemberRole,
} from '@intake/shared/entities';
import { LockMode } from '@mikro-orm/core';
import { endAllSessions } from '../../access/admin-sessions.js';
import type { Member } from '../../access/principal.js';
import { badUserInput, forbidden } from '../../errors.js';
import type { SiteGrantInput } from './member.input.js';

/** FORBIDDEN unless the caller is an owner, when the change touches an owner or makes one. */
export function requireOwnerFor(caller: Member, ...roles: (MemberRole | undefined)[]): void {
  if (caller.role !== 'owner' && roles.includes('owner')) {
    throw forbidden('Only an owner may make, change, disable or remove an owner');
  }
}

/**
 * BAD_USER_INPUT when `target` is the only active owner (the change at `field` would leave none).
 * Locks the active owners' rows until the transaction ends.
 */
export async function requireAnotherActiveOwner(tx: Em, target: AdminUser, field: string): Promise<void> {
  if (target.role !== 'owner' || target.status !== 'active') {
    return;
  }
  const owners = await tx.find(
    AdminUserSchema,
    { role: 'owner', status: 'active' },
    { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (owners.every((owner) => owner.id === target.id)) {
    throw badUserInput(field, 'would remove the last active owner: make another member an owner first');
  }
}

/** BAD_USER_INPUT when a grant names a site that does not exist or was deleted, or the role has no grants. */
export async function requireGrantableSites(
  tx: Em,
  role: MemberRole,
  grants: readonly SiteGrantInput[],
  field: string,
): Promise<void> {
  if (grants.length === 0) {
    return;
  }
  if (role !== 'member') {
    throw badUserInput(field, `is only for role member: an ${role} reaches every site`);
  }
  const siteIds = grants.map((grant) => grant.siteId);
  const live = await tx.find(SiteSchema, { id: { $in: siteIds }, deletedAt: null }, { fields: ['id'] });
  if (live.length !== siteIds.length) {
    throw badUserInput(field, 'names a site that does not exist');
  }
}

/** Replaces every grant of the member. */
export async function replaceGrants(tx: Em, memberId: string, grants: readonly SiteGrantInput[]): Promise<void> {
  await tx.nativeDelete(MemberSiteGrantSchema, { member: memberId });
  for (const grant of grants) {
    tx.create(MemberSiteGrantSchema, {
      member: tx.getReference(AdminUserSchema, memberId),
      site: tx.getReference(SiteSchema, grant.siteId),
      level: grant.level,
    });
  }
  await tx.flush();
}

/** The member's grants as `<siteId>:<level>`, sorted: how audit entries show them. */
export async function grantsForAudit(tx: Em, memberId: string): Promise<string[]> {
  const grants = await tx.find(MemberSiteGrantSchema, { member: memberId }, { fields: ['site', 'level'] });
  return grants.map((grant) => `${grant.site.id}:${grant.level}`).sort();
}

export function describeGrants(grants: readonly SiteGrantInput[]): string[] {
  return grants.map((grant) => `${grant.siteId}:${grant.level}`).sort();
}

/**
 * Ends everything the member holds: console sessions are deleted, admin tokens stop (their password
 * version moves on) and API tokens are revoked. Re-enabling a member does not bring any of them back.
 */
export async function endCredentials(tx: Em, member: AdminUser): Promise<void> {
  await endAllSessions(tx, member.id);
  await tx.nativeUpdate(ApiTokenSchema, { createdBy: member.id, revokedAt: null }, { revokedAt: new Date() });
  // Strictly later than before, even within one millisecond: it is the version admin tokens carry.
  const changedAt = new Date(Math.max(Date.now(), member.passwordChangedAt.getTime() + 1));
  await tx.nativeUpdate(AdminUserSchema, { id: member.id }, { passwordChangedAt: changedAt });
  member.passwordChangedAt = changedAt;
}
