import type { Em } from '@intake/shared/db';
import { AdminUserSchema, MemberSiteGrantSchema, type AdminUser, type MemberSiteGrant } from '@intake/shared/entities';

export interface MemberWithGrants {
  member: AdminUser;
  /** Grants on live sites, with their site loaded, oldest site first. */
  grants: MemberSiteGrant[];
}

async function withGrants(em: Em, members: AdminUser[]): Promise<MemberWithGrants[]> {
  const grants =
    members.length === 0
      ? []
      : await em.find(
          MemberSiteGrantSchema,
          { member: { $in: members.map((member) => member.id) }, site: { deletedAt: null } },
          { populate: ['site'], orderBy: { site: { createdAt: 'asc', id: 'asc' } } },
        );
  return members.map((member) => ({ member, grants: grants.filter((grant) => grant.member.id === member.id) }));
}

/** Every member, oldest first. */
export async function listMembers(em: Em): Promise<MemberWithGrants[]> {
  return withGrants(em, await em.find(AdminUserSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } }));
}

/** The member with this id, or null. */
export async function findMember(em: Em, memberId: string): Promise<MemberWithGrants | null> {
  const member = await em.findOne(AdminUserSchema, { id: memberId });
  return member === null ? null : ((await withGrants(em, [member]))[0] ?? null);
}
