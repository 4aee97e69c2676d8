import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { MemberRoleEnum } from '../../access/member-role.type.js';
import { SiteType } from '../../sites/site.type.js';

// The values of MEMBER_STATUSES and SITE_GRANT_LEVELS (@intake/shared/entities); see docs/teams.md.
export enum MemberStatusEnum {
  invited = 'invited',
  active = 'active',
  disabled = 'disabled',
}

registerEnumType(MemberStatusEnum, {
  name: 'MemberStatus',
  description: 'Only an active member signs in; disabling one ends their sessions and tokens at once.',
});

export enum SiteGrantLevelEnum {
  read = 'read',
  manage = 'manage',
}

registerEnumType(SiteGrantLevelEnum, {
  name: 'SiteGrantLevel',
  description: 'read: forms, submissions, files, exports of the site; manage: also changes them (docs/teams.md).',
});

@ObjectType('SiteGrant', { description: 'One site a member (role `member`) may work on, and how far.' })
export class SiteGrantType {
  @Field(() => SiteType)
  site!: SiteType;

  @Field(() => SiteGrantLevelEnum)
  level!: SiteGrantLevelEnum;
}

@ObjectType('Member', { description: 'A person of the team (docs/teams.md).' })
export class MemberType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  name!: string;

  @Field(() => MemberRoleEnum)
  role!: MemberRoleEnum;

  @Field(() => MemberStatusEnum)
  status!: MemberStatusEnum;

  @Field(() => [SiteGrantType], { description: 'Live sites only; always empty for owners and admins.' })
  grants!: SiteGrantType[];

  @Field(() => Boolean, { description: 'Signs in with a code after the password (docs/sign-in.md).' })
  twoFactorEnabled!: boolean;

  @Field(() => Boolean, {
    description:
      'Linked to an account at the OpenID provider by their first single sign-on; only that account signs in as them (docs/single-sign-on.md).',
  })
  ssoLinked!: boolean;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: when the current (or the accepted) invitation was sent; null for a member never invited.',
  })
  invitedAt!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: until when the invitation link holds, while the member is invited; null otherwise.',
  })
  invitationExpiresAt!: string | null;
}

@ObjectType('CreatedMember')
export class CreatedMemberType {
  @Field(() => String, {
    description: 'The initial password, in this answer only (only its hash is stored): hand it over, they change it.',
  })
  password!: string;

  @Field(() => MemberType)
  member!: MemberType;
}
