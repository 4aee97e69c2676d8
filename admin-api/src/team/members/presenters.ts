import { hasSecondFactor } from '../../access/second-factors.js';
import type { MemberWithGrants } from '../../access/find-admin.js';
import type { MemberRoleEnum } from '../../access/member-role.type.js';
import type { MemberStatusEnum, MemberType, SiteGrantLevelEnum } from './member.type.js';
import { presentSite } from '../../sites/presenters.js';

export function presentMember({ member, grants }: MemberWithGrants): MemberType {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role as MemberRoleEnum,
    status: member.status as MemberStatusEnum,
    grants: grants.map((grant) => ({ site: presentSite(grant.site), level: grant.level as SiteGrantLevelEnum })),
    twoFactorEnabled: hasSecondFactor(member),
    ssoLinked: Boolean(member.ssoSubject),
    createdAt: member.createdAt.toISOString(),
    invitedAt: member.invitedAt?.toISOString() ?? null,
    invitationExpiresAt: member.status === 'invited' ? (member.invitationExpiresAt?.toISOString() ?? null) : null,
  };
}
