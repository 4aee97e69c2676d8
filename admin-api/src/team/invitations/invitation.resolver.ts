// Invitations (docs/teams.md): owners and admins invite, resend and revoke (`members:manage`, the
// role rules of createMember); whoever holds a link looks it up and accepts it (public, under the
// invitation attempt limit). The link's token is never logged, audited or put in an error.
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { acceptInvitation } from './accept-invitation.js';
import { consumeInvitationAttempt } from './invitation-attempts.js';
import { inviteMember } from './invite-member.js';
import { resendInvitation, revokeInvitation } from './manage-invitation.js';
import type { AdminContext } from '../../context.js';
import { presentAuthPayload } from '../../sign-in/presenters.js';
import { presentMember } from '../members/presenters.js';
import { findInvitation } from './find-invitation.js';
import { findMember } from '../../access/find-admin.js';
import { notFound } from '../../errors.js';
import { AuthPayloadType } from '../../sign-in/sign-in.type.js';
import { type MemberRoleEnum } from '../../access/member-role.type.js';
import { AcceptInvitationInput, invitationToken, InviteMemberInput } from './invitation.input.js';
import { InvitationPayloadType, InvitationStateEnum, InvitationViewType } from './invitation.type.js';
import { parseId } from '../../validation/fields.js';
import { InputArg } from '../../validation/input-type.js';
import { actingMember } from '../../access/acting-member.js';

async function payload(
  { em }: AdminContext,
  issued: { member: { id: string }; link: string | null; emailSent: boolean },
): Promise<InvitationPayloadType> {
  const found = await findMember(em.fork(), issued.member.id);
  if (found === null) {
    throw notFound('Member');
  }
  return { member: presentMember(found), link: issued.link, emailSent: issued.emailSent };
}

@Resolver()
export class InvitationResolver {
  @Authorized()
  @Mutation(() => InvitationPayloadType, {
    description:
      'A member with status `invited` and a single-use link valid 72 hours, e-mailed when SMTP_URL is set, else answered here to hand over.',
  })
  async inviteMember(
    @InputArg('input', InviteMemberInput) input: InviteMemberInput,
    @Ctx() context: AdminContext,
  ): Promise<InvitationPayloadType> {
    return payload(context, await inviteMember(context.em, context.deps, await actingMember(context), input));
  }

  @Authorized()
  @Mutation(() => InvitationPayloadType, {
    description: 'A new link for an invited member (their id), valid 72 hours; the link before stops working.',
  })
  async resendInvitation(
    @Arg('id', () => ID) id: string,
    @Ctx() context: AdminContext,
  ): Promise<InvitationPayloadType> {
    return payload(
      context,
      await resendInvitation(context.em, context.deps, await actingMember(context), parseId(id, 'id')),
    );
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Removes the invited member (their id) and their link. False when there was no such member.',
  })
  async revokeInvitation(@Arg('id', () => ID) id: string, @Ctx() context: AdminContext): Promise<boolean> {
    return revokeInvitation(context.em, await actingMember(context), parseId(id, 'id'));
  }

  @Query(() => InvitationViewType, {
    description:
      'Needs no token: what the link (the part after `#`) is for, and whether it still holds. An unknown link answers REVOKED.',
  })
  async invitation(
    @Arg('token', () => String) token: string,
    @Ctx() context: AdminContext,
  ): Promise<InvitationViewType> {
    await consumeInvitationAttempt(context.deps, context.clientAddress);
    const parsed = invitationToken.safeParse(token);
    const { member, state } = parsed.success
      ? await findInvitation(context.em, parsed.data)
      : { member: null, state: 'REVOKED' as const };
    return {
      email: member?.email ?? null,
      role: (member?.role as MemberRoleEnum | undefined) ?? null,
      state: InvitationStateEnum[state],
    };
  }

  @Mutation(() => AuthPayloadType, {
    description:
      'Needs no token: makes the invited member active with this name and password and signs them in as `login` does (with the session cookie). BAD_USER_INPUT on `input.token` when the link was used, has expired or was revoked.',
  })
  async acceptInvitation(
    @InputArg('input', AcceptInvitationInput) input: AcceptInvitationInput,
    @Ctx() context: AdminContext,
  ): Promise<AuthPayloadType> {
    const { em, deps, clientAddress, requestId, session } = context;
    const loggedIn = await acceptInvitation(em, deps, { input, clientAddress, requestId });
    session.set(loggedIn.session.secret, loggedIn.session.expiresAt);
    return presentAuthPayload(loggedIn.issued);
  }
}
