// Who is calling: a member signed in (console session or admin token), or an integrator's API
// token, which acts for the member who created it. The member (role, status, site grants) is read
// from the database on every request, so a demoted or disabled member's sessions and tokens shrink
// or stop on their next request.
import type { Loaded } from '@mikro-orm/core';
import type { Em } from '@intake/shared/db';
import {
  AdminUserSchema,
  type AdminUser,
  MemberSiteGrantSchema,
  TEAM_POLICY_ID,
  TeamPolicySchema,
  type ApiTokenLevel,
  type MemberRole,
  type SiteGrantLevel,
} from '@intake/shared/entities';
import { hasSecondFactor } from './second-factors.js';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  /** Site id → level, for role `member` (owners and admins reach every site without grants). */
  grants: ReadonlyMap<string, SiteGrantLevel>;
  /** A confirmed second factor: TOTP codes or a passkey (docs/sign-in.md). */
  secondFactor: boolean;
}

/** What an API token carries of its member's power: a level and, when limited, its sites. */
export interface TokenScope {
  level: ApiTokenLevel;
  /** null: every site the member may see. */
  siteIds: ReadonlySet<string> | null;
}

export type Principal =
  | {
      kind: 'admin';
      adminId: string;
      member: Member;
      /** The team requires a second factor and the member has none: only enrolment is open (docs/sign-in.md). */
      mustEnrolSecondFactor: boolean;
      /** When the session or admin token was started by a sign-in or a confirmation (recent-sign-in.ts). */
      signedInAt: Date;
    }
  | { kind: 'api_token'; apiTokenId: string; adminId: string; member: Member; scope: TokenScope };

/**
 * What to load with a member's row for `activeMember`: whether they hold a passkey, in the same
 * query (a subquery of the row) instead of one of its own on every request.
 */
export const MEMBER_POPULATE = ['hasPasskey'] as const;

/** The active member with this id, with their grants; null when gone, invited or disabled. */
export async function loadActiveMember(em: Em, memberId: string): Promise<Member | null> {
  const account = await em.findOne(AdminUserSchema, { id: memberId }, { populate: MEMBER_POPULATE });
  return account === null ? null : activeMember(em, account);
}

/**
 * The member behind an account row loaded with `MEMBER_POPULATE`, with their grants; null when
 * invited or disabled.
 */
export async function activeMember(
  em: Em,
  account: Loaded<AdminUser, (typeof MEMBER_POPULATE)[number]>,
): Promise<Member | null> {
  if (account.status !== 'active') {
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
    secondFactor: hasSecondFactor(account) || account.hasPasskey === true,
  };
}

/**
 * A signed-in member (console session or admin token) as a principal. The team's policy is read
 * only for a member without a second factor, so most requests cost no extra query.
 */
export async function signedInPrincipal(em: Em, member: Member, signedInAt: Date): Promise<Principal> {
  const mustEnrolSecondFactor = member.secondFactor ? false : await teamRequiresSecondFactor(em);
  return { kind: 'admin', adminId: member.id, member, mustEnrolSecondFactor, signedInAt };
}

export async function teamRequiresSecondFactor(em: Em): Promise<boolean> {
  const policy = await em.findOne(TeamPolicySchema, { id: TEAM_POLICY_ID }, { fields: ['requireSecondFactor'] });
  return policy?.requireSecondFactor ?? false;
}
