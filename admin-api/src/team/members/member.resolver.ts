// The team's members (docs/teams.md): owners and admins list, create, change and remove them
// (`members:manage`); the rules that keep owners safe from admins and the team from losing its last
// owner are in member-rules.ts.
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { createMember } from './create-member.js';
import { removeMember } from './remove-member.js';
import { updateMember } from './update-member.js';
import type { AdminContext } from '../../context.js';
import { presentMember } from './presenters.js';
import { listMembers } from './list-members.js';
import { findMember } from '../../access/find-admin.js';
import { notFound } from '../../errors.js';
import { CreateMemberInput, UpdateMemberInput } from './member.input.js';
import { CreatedMemberType, MemberType } from './member.type.js';
import { parseId } from '../../validation/fields.js';
import { InputArg } from '../../validation/input-type.js';
import { actingMember } from '../../access/acting-member.js';

async function present(em: AdminContext['em'], memberId: string): Promise<MemberType> {
  const found = await findMember(em.fork(), memberId);
  if (found === null) {
    throw notFound('Member');
  }
  return presentMember(found);
}

@Authorized()
@Resolver()
export class MemberResolver {
  @Query(() => [MemberType], { description: 'Every member of the team, oldest first.' })
  async members(@Ctx() { em }: AdminContext): Promise<MemberType[]> {
    return (await listMembers(em)).map(presentMember);
  }

  @Query(() => MemberType, { nullable: true, description: 'Null when there is no such member.' })
  async member(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<MemberType | null> {
    const found = await findMember(em, parseId(id, 'id'));
    return found === null ? null : presentMember(found);
  }

  @Mutation(() => CreatedMemberType, {
    description:
      'An active member with a generated password, in this answer only. `inviteMember` lets the person choose their own.',
  })
  async createMember(
    @InputArg('input', CreateMemberInput) input: CreateMemberInput,
    @Ctx() context: AdminContext,
  ): Promise<CreatedMemberType> {
    const { member, password } = await createMember(context.em, await actingMember(context), input);
    return { password, member: await present(context.em, member.id) };
  }

  @Mutation(() => MemberType, { description: 'Disabling ends every session and token of the member at once.' })
  async updateMember(
    @Arg('id', () => ID) id: string,
    @InputArg('input', UpdateMemberInput) input: UpdateMemberInput,
    @Ctx() context: AdminContext,
  ): Promise<MemberType> {
    const member = await updateMember(context.em, await actingMember(context), parseId(id, 'id'), input);
    return present(context.em, member.id);
  }

  @Mutation(() => Boolean, {
    description: 'False when there was no such member. Their audit entries stay, under their e-mail.',
  })
  async removeMember(@Arg('id', () => ID) id: string, @Ctx() context: AdminContext): Promise<boolean> {
    return removeMember(context.em, await actingMember(context), parseId(id, 'id'));
  }
}
