// Password resets (docs/sign-in.md, "Forgotten password"): "Forgot password?" asks for a link by
// e-mail, the link sets a new password, and an owner or admin sends a member a link. The e-mail and
// the password are arguments of type String, which the audit log never copies.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, ID, Info, Mutation, Resolver } from 'type-graphql';
import { actingMember } from '../../access/acting-member.js';
import type { AdminContext } from '../../context.js';
import { noteAudit } from '../../lib/audit-notes.js';
import { newPassword, parseId } from '../../validation/fields.js';
import { parseInput } from '../../validation/parse-input.js';
import { PasswordResetLinkType } from './password-reset.type.js';
import { requestPasswordReset } from './request-password-reset.js';
import { resetMemberPassword } from './reset-member-password.js';
import { resetPassword } from './reset-password.js';

@Resolver()
export class PasswordResetResolver {
  @Mutation(() => Boolean, {
    description:
      'Needs no token. E-mails a single-use reset link (30 minutes) to the active member of this address, when SMTP_URL is set. Answers true whether or not the address is a member’s.',
  })
  async requestPasswordReset(
    @Arg('email', () => String) email: string,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<boolean> {
    const { em, deps, clientAddress, requestId } = context;
    const sent = await requestPasswordReset(em, deps, { email, clientAddress, requestId });
    // The audit log (for owners and admins) may say whose link went out; the answer never does.
    noteAudit(context.auditNotes, info, {
      ...(sent === null ? {} : { actor: { kind: 'anonymous', id: sent.memberId, name: sent.email } }),
      details: { emailSent: sent !== null },
    });
    return true;
  }

  @Mutation(() => Boolean, {
    description:
      'Needs no token. Sets a new password with the token of a reset link (the part after #). Ends every session of the member; signs nobody in, and the second factor stays: sign in anew.',
  })
  async resetPassword(
    @Arg('token', () => String) token: string,
    @Arg('newPassword', () => String) newPasswordArgument: string,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<boolean> {
    const password = parseInput(newPassword, newPasswordArgument, 'newPassword');
    const member = await resetPassword(context.em, context.deps, {
      token,
      password,
      clientAddress: context.clientAddress,
    });
    noteAudit(context.auditNotes, info, { actor: { kind: 'admin', id: member.id, name: member.email } });
    return true;
  }

  @Authorized()
  @Mutation(() => PasswordResetLinkType, {
    description:
      'Owners, and admins for members. Sends the member a single-use reset link by e-mail, or answers it to hand over without SMTP_URL. Their password holds until the link is used.',
  })
  async resetMemberPassword(
    @Arg('id', () => ID) id: string,
    @Ctx() context: AdminContext,
  ): Promise<PasswordResetLinkType> {
    const issued = await resetMemberPassword(context.em, context.deps, await actingMember(context), parseId(id, 'id'));
    return { link: issued.link, emailSent: issued.emailSent, expiresAt: issued.expiresAt.toISOString() };
  }
}
