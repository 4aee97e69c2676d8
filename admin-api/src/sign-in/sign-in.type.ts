import { Field, ID, Int, ObjectType } from 'type-graphql';
import { MemberRoleEnum } from '../access/member-role.type.js';
import { PasskeyType } from './passkeys/passkey.type.js';

@ObjectType('AuthPayload')
export class AuthPayloadType {
  @Field(() => String, { description: 'Send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  expiresAt!: string;

  @Field(() => [PasskeyType], {
    description:
      "changePassword only (empty elsewhere): the member's passkeys added since their last sign-in with the password, every one when there was none. A stolen session may have added them: review them and remove those you do not know (docs/sign-in.md#recent-sign-in).",
  })
  passkeysSincePasswordSignIn!: PasskeyType[];

  @Field(() => Int, {
    nullable: true,
    description:
      'verifySecondFactor with a recovery code only (null elsewhere): how many unused recovery codes are left. Make new ones (regenerateRecoveryCodes) before they run out.',
  })
  recoveryCodesLeft!: number | null;
}

@ObjectType('AdminUser')
export class AdminUserType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { description: 'Empty until the member gives one.' })
  name!: string;

  @Field(() => MemberRoleEnum)
  role!: MemberRoleEnum;

  @Field(() => [String], {
    description:
      'The team permissions the caller holds (docs/teams.md), e.g. `members:manage`; for an API token, within its level and sites. The console offers only what they allow.',
  })
  permissions!: string[];

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  passwordChangedAt!: string;

  @Field(() => Boolean, { description: 'Signs in with a code after the password (docs/sign-in.md).' })
  twoFactorEnabled!: boolean;

  @Field(() => Boolean, {
    description: 'The team requires a second factor and this member has none yet: only enrolment is open.',
  })
  twoFactorRequired!: boolean;
}
