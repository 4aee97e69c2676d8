// How many passkeys a member has, beside `twoFactorEnabled` (which is about TOTP codes): a member
// with a passkey has a second factor too (docs/sign-in.md). Counted only when selected.
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { PasskeySchema } from '@intake/shared/entities';
import type { AdminContext } from '../../context.js';
import { AdminUserType } from '../sign-in.type.js';
import { MemberType } from '../../team/members/member.type.js';

const DESCRIPTION = 'Passkeys the member registered; a passkey is a second factor too (docs/sign-in.md).';

@Resolver(() => AdminUserType)
export class AccountPasskeyCountResolver {
  @FieldResolver(() => Int, { description: DESCRIPTION })
  passkeyCount(@Root() account: AdminUserType, @Ctx() { em }: AdminContext): Promise<number> {
    return em.count(PasskeySchema, { admin: account.id });
  }
}

@Resolver(() => MemberType)
export class MemberPasskeyCountResolver {
  @FieldResolver(() => Int, { description: DESCRIPTION })
  passkeyCount(@Root() member: MemberType, @Ctx() { em }: AdminContext): Promise<number> {
    return em.count(PasskeySchema, { admin: member.id });
  }
}
