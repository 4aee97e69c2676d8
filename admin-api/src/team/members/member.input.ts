import type { Config } from '@intake/shared/config';
import { InputType } from 'type-graphql';
import { z } from 'zod';
import { email, id, name } from '../../validation/fields.js';
import { InputField, inputSchema } from '../../validation/input-type.js';
import { MemberRoleEnum } from '../../access/member-role.type.js';
import { MemberStatusEnum, SiteGrantLevelEnum } from './member.type.js';

@InputType('SiteGrantInput')
export class SiteGrantInput {
  @InputField(() => String, id)
  siteId!: string;

  @InputField(() => SiteGrantLevelEnum, z.enum(SiteGrantLevelEnum))
  level!: SiteGrantLevelEnum;
}

/** A member's site grants, each checked as SiteGrantInput declares it; one per site. */
export const grants = (config: Config) =>
  z
    .array(inputSchema(SiteGrantInput, config) as unknown as z.ZodType<SiteGrantInput>)
    .max(1000, 'must list at most 1000 sites')
    .refine((list) => new Set(list.map((grant) => grant.siteId)).size === list.length, 'must name each site once');

@InputType('CreateMemberInput')
export class CreateMemberInput {
  @InputField(() => String, email)
  email!: string;

  @InputField(() => String, name)
  name!: string;

  @InputField(() => MemberRoleEnum, z.enum(MemberRoleEnum))
  role!: MemberRoleEnum;

  @InputField(() => [SiteGrantInput], grants, { description: 'Only for role `member`.' })
  grants!: SiteGrantInput[];
}

@InputType('UpdateMemberInput', {
  description: 'Absent fields stay as they are; `grants` replaces every grant (role `member` only).',
})
export class UpdateMemberInput {
  @InputField(() => String, name, { nullable: true })
  name?: string;

  @InputField(() => MemberRoleEnum, z.enum(MemberRoleEnum), { nullable: true })
  role?: MemberRoleEnum;

  @InputField(() => [SiteGrantInput], grants, { nullable: true })
  grants?: SiteGrantInput[];

  @InputField(() => MemberStatusEnum, z.enum(['active', 'disabled']), {
    nullable: true,
    description: '`active` or `disabled` (`invited` is set by invitations).',
  })
  status?: 'active' | 'disabled';
}
