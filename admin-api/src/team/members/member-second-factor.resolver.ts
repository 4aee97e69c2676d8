// Whether a member has any second factor (an authenticator app or a passkey): what the Members page
// shows an owner before they require one of everyone (docs/sign-in.md). One count per member listed.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { hasPasskey } from '../../access/second-factors.js';
import type { AdminContext } from '../../context.js';
import { MemberType } from './member.type.js';

@Resolver(() => MemberType)
export class MemberSecondFactorResolver {
  @FieldResolver(() => Boolean, {
    description:
      'Has a second factor of any kind: codes of an authenticator app (twoFactorEnabled) or a passkey. Those without are held at enrolment once the team requires one.',
  })
  async secondFactor(@Root() member: MemberType, @Ctx() { em }: AdminContext): Promise<boolean> {
    return member.twoFactorEnabled || (await hasPasskey(em, member.id));
  }
}
