import type { Em } from '@intake/shared/db';
import { AdminUserSchema, MemberSiteGrantSchema, type AdminUser, type MemberSiteGrant } from '@intake/shared/entities';
import { normalizeEmail } from './login-policy.js';

/** The longest address an account may have (RFC 5321's path limit, as the column). */
export const EMAIL_MAX_LENGTH = 320;

/** The administrator with this id, or null (deleted since the token was issued). */
export function findAdmin(em: Em, adminId: string): Promise<AdminUser | null> {
  return em.findOne(AdminUserSchema, { id: adminId });
}

/**
 * The administrator a typed sign-in e-mail names (compared trimmed, in lower case), or null. An
 * address no account can have is answered without a query: an over-long one, and one holding
 * U+0000, which PostgreSQL text cannot hold (the query would fail as if the database were down).
 */
export function findAdminByEmail(em: Em, typedEmail: string): Promise<AdminUser | null> {
  const email = normalizeEmail(typedEmail);
  if (email.length > EMAIL_MAX_LENGTH || email.includes('\u0000')) {
    return Promise.resolve(null);
  }
  return em.findOne(AdminUserSchema, { email });
}

export interface MemberWithGrants {
  member: AdminUser;
  /** Grants on live sites, with their site loaded, oldest site first. */
  grants: MemberSiteGrant[];
}

/** The members with their grants, in one query for all of them. */
export async function withGrants(em: Em, members: AdminUser[]): Promise<MemberWithGrants[]> {
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

/** The member with this id and their grants, or null. */
export async function findMember(em: Em, memberId: string): Promise<MemberWithGrants | null> {
  const member = await em.findOne(AdminUserSchema, { id: memberId });
  return member === null ? null : ((await withGrants(em, [member]))[0] ?? null);
}
