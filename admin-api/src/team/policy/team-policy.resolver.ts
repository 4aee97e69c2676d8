// The team's sign-in policy (docs/sign-in.md): whether every member must have a second factor.
import { Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { actingMember } from '../../access/acting-member.js';
import type { AdminContext } from '../../context.js';
import { InputArg } from '../../validation/input-type.js';
import { findTeamPolicy } from './find-team-policy.js';
import { TeamPolicyType, UpdateTeamPolicyInput } from './team-policy.type.js';
import { updateTeamPolicy } from './update-team-policy.js';

@Resolver()
export class TeamPolicyResolver {
  @Authorized()
  @Query(() => TeamPolicyType, { description: 'How the team signs in (every member may read it).' })
  async teamPolicy(@Ctx() { em }: AdminContext): Promise<TeamPolicyType> {
    const policy = await findTeamPolicy(em);
    return { requireSecondFactor: policy.requireSecondFactor };
  }

  @Authorized()
  @Mutation(() => TeamPolicyType, { description: 'Owners only. Changes how the team signs in.' })
  async updateTeamPolicy(
    @InputArg('input', UpdateTeamPolicyInput) input: UpdateTeamPolicyInput,
    @Ctx() context: AdminContext,
  ): Promise<TeamPolicyType> {
    const policy = await updateTeamPolicy(context.em, await actingMember(context), input);
    return { requireSecondFactor: policy.requireSecondFactor };
  }
}
