// Roles and site levels in words, as the members and account pages show them (docs/teams.md).
import type { MemberRole, MemberStatus, SiteGrantLevel } from '../gql/graphql';

export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: 'Everything, including owners and the team.',
  admin: 'Every site, the audit log and erasure; members and admins, not owners.',
  member: 'Only the sites granted below, each to read or to manage.',
};

export const STATUS_LABELS: Record<MemberStatus, string> = {
  active: 'Active',
  invited: 'Invited',
  disabled: 'Disabled',
};

export const LEVEL_LABELS: Record<SiteGrantLevel, string> = {
  read: 'Read',
  manage: 'Manage',
};
