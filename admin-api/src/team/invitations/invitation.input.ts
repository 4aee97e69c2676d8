import { InputType } from 'type-graphql';
import { z } from 'zod';
import { MemberRoleEnum } from '../../access/member-role.type.js';
import { email, name, newPassword } from '../../validation/fields.js';
import { InputField } from '../../validation/input-type.js';
import { grants, SiteGrantInput } from '../members/member.input.js';

/** An invitation token as links carry it; anything longer is no token of ours. */
export const invitationToken = z
  .string()
  .refine((value) => value.length >= 1 && value.length <= 100, 'is not an invitation link');

@InputType('InviteMemberInput')
export class InviteMemberInput {
  @InputField(() => String, email)
  email!: string;

  @InputField(() => String, name.nullish().transform((value) => value ?? undefined), {
    nullable: true,
    description: 'A name to start with; the invitee chooses theirs when they accept.',
  })
  name?: string;

  @InputField(() => MemberRoleEnum, z.enum(MemberRoleEnum))
  role!: MemberRoleEnum;

  @InputField(
    () => [SiteGrantInput],
    (config) =>
      grants(config)
        .nullish()
        .transform((value) => value ?? undefined),
    { nullable: true, description: 'Only for role `member`; none when left out.' },
  )
  grants?: SiteGrantInput[];
}

@InputType('AcceptInvitationInput')
export class AcceptInvitationInput {
  @InputField(() => String, invitationToken, { description: 'The part of the link after `#`.' })
  token!: string;

  @InputField(() => String, name)
  name!: string;

  @InputField(() => String, newPassword, { description: 'The same rules as every password (12 to 1024 characters).' })
  password!: string;
}
