// A member's own account: what they change of it themselves (`account`). Their password is
// changePassword's (auth.resolver.ts), their tokens the API token resolver's.
import { Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { updateAccount } from './update-account.js';
import type { AdminContext } from '../../context.js';
import { presentMember } from '../members/presenters.js';
import { findMember } from '../../access/find-admin.js';
import { unauthenticated } from '../../errors.js';
import { UpdateAccountInput } from './account.input.js';
import { MemberType } from '../members/member.type.js';
import { InputArg } from '../../validation/input-type.js';
import { actingMember } from '../../access/acting-member.js';

@Authorized()
@Resolver()
export class AccountResolver {
  @Mutation(() => MemberType, { description: 'Renames the caller (recorded as `member.renamed`).' })
  async updateAccount(
    @InputArg('input', UpdateAccountInput) input: UpdateAccountInput,
    @Ctx() context: AdminContext,
  ): Promise<MemberType> {
    const member = await updateAccount(context.em, await actingMember(context), input);
    const found = await findMember(context.em.fork(), member.id);
    if (found === null) {
      throw unauthenticated();
    }
    return presentMember(found);
  }
}
