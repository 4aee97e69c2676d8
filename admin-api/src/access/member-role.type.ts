import { registerEnumType } from 'type-graphql';

// The values of MEMBER_ROLES (@intake/shared/entities); see docs/teams.md.
export enum MemberRoleEnum {
  owner = 'owner',
  admin = 'admin',
  member = 'member',
}

registerEnumType(MemberRoleEnum, {
  name: 'MemberRole',
  description: 'owner: everything; admin: every site, not owners; member: the sites granted to them (docs/teams.md).',
});
