// Who is calling: a member signed in (console session or admin token), or an integrator's API
// token, which acts for the member who created it. The member (role, status, site grants) is read
// from the database on every request, so a demoted or disabled member's sessions and tokens shrink
// or stop on their next request.
import type { Em } from '@intake/shared/db';
import {
  AdminUserSchema,
  MemberSiteGrantSchema,
  type ApiTokenLevel,
  type MemberRole,
  type SiteGrantLevel,
} from '@intake/shared/entities';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  /** Site id → level, for role `member` (owners and admins reach every site without grants). */
  grants: ReadonlyMap<string, SiteGrantLevel>;
}

/** What an API token carries of its member's power: a level and, when limited, its sites. */
export interface TokenScope {
  level: ApiTokenLevel;
  /** null: every site the member may see. */
  siteIds: ReadonlySet<string> | null;
}

export type Principal =
  | { kind: 'admin'; adminId: string; member: Member }
  | { kind: 'api_token'; apiTokenId: string; adminId: string; member: Member; scope: TokenScope };

/** The active member with this id, with their grants; null when gone, invited or disabled. */
export async function loadActiveMember(em: Em, memberId: string): Promise<Member | null> {
  const account = await em.findOne(AdminUserSchema, { id: memberId, status: 'active' });
  if (account === null) {
    return null;
  }
  const grants =
    account.role === 'member'
      ? await em.find(MemberSiteGrantSchema, { member: account.id }, { fields: ['site', 'level'] })
      : [];
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    grants: new Map(grants.map((grant) => [grant.site.id, grant.level])),
  };
}
