// Login (a bearer token for API clients and an HttpOnly session cookie for the console), logout,
// the current principal, and password change.
import type { Passkey } from '@intake/shared/entities';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, Info, Mutation, Query, Resolver } from 'type-graphql';
import { noteAudit } from '../../lib/audit-notes.js';
import { callerTeamPermissions } from '../../access/permissions.js';
import { changePassword } from './change-password.js';
import { findAdmin } from '../../access/find-admin.js';
import { login } from './login.js';
import { type LoggedIn } from '../../access/issue-sign-in.js';
import { logout } from '../sessions/logout.js';
import type { AdminContext } from '../../context.js';
import { presentAdminUser, presentAuthPayload } from '../presenters.js';
import { forbidden, unauthenticated } from '../../errors.js';
import { AdminUserType, AuthPayloadType } from '../sign-in.type.js';
import { newPassword } from '../../validation/fields.js';
import { parseInput } from '../../validation/parse-input.js';

/** The token in the answer, the session in its cookie. */
function answer(loggedIn: LoggedIn, { session }: AdminContext, passkeys: readonly Passkey[] = []): AuthPayloadType {
  session.set(loggedIn.session.secret, loggedIn.session.expiresAt);
  return presentAuthPayload(loggedIn.issued, passkeys);
}

@Resolver()
export class AuthResolver {
  @Mutation(() => AuthPayloadType, {
    description:
      'Needs no token. Also sets the HttpOnly session cookie `intake_session` that the console uses instead of the token. A member with two-factor sign-in gets SECOND_FACTOR_REQUIRED instead, with a challenge for `verifySecondFactor`.',
  })
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<AuthPayloadType> {
    const { em, deps, clientAddress, requestId } = context;
    noteAudit(context.auditNotes, info, { details: { method: 'password' } });
    return answer(await login(em, deps, { email, password, clientAddress, requestId }), context);
  }

  @Mutation(() => Boolean, {
    description:
      'Needs no token. Ends the console session of this request server-side and clears its cookie (bearer tokens end when they expire or the password changes).',
  })
  async logout(@Ctx() { em, session }: AdminContext): Promise<boolean> {
    await logout(em, session.read());
    session.clear();
    return true;
  }

  @Authorized()
  @Query(() => AdminUserType, {
    description: 'The member behind the token (for an API token: the one who created it).',
  })
  async me(@Ctx() { em, principal }: AdminContext): Promise<AdminUserType> {
    const admin = principal === null ? null : await findAdmin(em, principal.adminId);
    if (principal === null || admin === null) {
      throw forbidden('No administrator is behind this token');
    }
    return presentAdminUser(
      admin,
      callerTeamPermissions(principal),
      principal?.kind === 'admin' && principal.mustEnrolSecondFactor,
    );
  }

  @Authorized()
  @Mutation(() => AuthPayloadType, {
    description:
      'Every admin token and console session issued before stops working; the answer is a new token (and a new session cookie), with `passkeysSincePasswordSignIn` to review.',
  })
  async changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPasswordArgument: string,
    @Ctx() context: AdminContext,
  ): Promise<AuthPayloadType> {
    const next = parseInput(newPassword, newPasswordArgument, 'newPassword');
    if (context.principal?.kind !== 'admin') {
      throw unauthenticated();
    }
    const { em, deps, principal } = context;
    const changed = await changePassword(em, deps, principal.adminId, { current: currentPassword, next });
    return answer(changed, context, changed.passkeysSincePasswordSignIn);
  }
}
