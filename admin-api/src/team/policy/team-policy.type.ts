import { Field, InputType, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { InputField } from '../../validation/input-type.js';

@ObjectType('TeamPolicy', { description: 'How the team signs in, set by an owner (docs/sign-in.md).' })
export class TeamPolicyType {
  @Field(() => Boolean, {
    description: 'Members without a second factor can do nothing but enrol one after they sign in.',
  })
  requireSecondFactor!: boolean;
}

@InputType('UpdateTeamPolicyInput', { description: 'Absent fields stay as they are.' })
export class UpdateTeamPolicyInput {
  @InputField(() => Boolean, z.boolean(), { nullable: true })
  requireSecondFactor?: boolean;
}
