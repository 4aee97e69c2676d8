// Two-factor sign-in (docs/sign-in.md): the code after the password, enrolment with a QR code and
// recovery codes, turning it off, and an owner's reset (the team's policy: team/policy/). Codes are arguments of
// type String, which the audit log never copies; the sign-in method is noted for it instead.
import { Arg, Authorized, Ctx, ID, Info, Mutation, Resolver } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { noteSignInAttempt } from '../../lib/audit-notes.js';
import { confirmTwoFactor } from './confirm-two-factor.js';
import { disableTwoFactor, regenerateRecoveryCodes } from './disable-two-factor.js';
import { resetMemberTwoFactor } from './reset-member-two-factor.js';
import { startTwoFactorEnrolment } from './start-enrolment.js';
import { unusedRecoveryCodes } from './second-factor.js';
import { verifySecondFactor, type SecondFactorOutcome } from './verify-second-factor.js';
import type { AdminContext } from '../../context.js';
import { presentAuthPayload } from '../presenters.js';
import { presentMember } from '../../team/members/presenters.js';
import { findMember } from '../../access/find-admin.js';
import { notFound } from '../../errors.js';
import { AuthPayloadType } from '../sign-in.type.js';
import { MemberType } from '../../team/members/member.type.js';
import { RecoveryCodesType, TwoFactorEnrolmentType } from './two-factor.type.js';
import { parseId } from '../../validation/fields.js';
import { actingMember, signedInMemberId } from '../../access/acting-member.js';

/** The audit entry's method: what came first (a password, a single sign-on), then the code. */
const methodName = ({ firstFactor, method }: SecondFactorOutcome): string =>
  `${firstFactor}+${method === null ? 'code' : method}`;

@Resolver()
export class TwoFactorResolver {
  @Mutation(() => AuthPayloadType, {
    description:
      'Needs no token. Completes a `login` answered with SECOND_FACTOR_REQUIRED: its `extensions.challenge` and a code of the authenticator app (or an unused recovery code). Sets the session cookie as `login` does.',
  })
  async verifySecondFactor(
    @Arg('challenge', () => String) challenge: string,
    @Arg('code', () => String) code: string,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<AuthPayloadType> {
    const { em, deps, clientAddress, requestId, session } = context;
    const outcome: SecondFactorOutcome = { member: null, method: null, firstFactor: 'password' };
    try {
      const loggedIn = await verifySecondFactor(em, deps, { challenge, code, clientAddress, requestId }, outcome);
      session.set(loggedIn.session.secret, loggedIn.session.expiresAt);
      const codesLeft = outcome.method === 'recovery_code' ? await unusedRecoveryCodes(em, outcome.member!.id) : null;
      return presentAuthPayload(loggedIn.issued, [], codesLeft);
    } finally {
      noteSignInAttempt(context.auditNotes, info, outcome.member, {
        succeeded: outcome.method !== null,
        method: methodName(outcome),
      });
    }
  }

  @Authorized()
  @Mutation(() => TwoFactorEnrolmentType, {
    description:
      'A new TOTP secret for the signed-in member, with its otpauth URI and QR code; pending until confirmTwoFactor.',
  })
  async startTwoFactorEnrolment(@Ctx() context: AdminContext): Promise<TwoFactorEnrolmentType> {
    return startTwoFactorEnrolment(context.em, context.deps, signedInMemberId(context));
  }

  @Authorized()
  @Mutation(() => RecoveryCodesType, {
    description:
      'Turns two-factor sign-in on with a first code of the enrolled secret; answers ten recovery codes, once.',
  })
  async confirmTwoFactor(
    @Arg('code', () => String) code: string,
    @Ctx() context: AdminContext,
  ): Promise<RecoveryCodesType> {
    return { codes: await confirmTwoFactor(context.em, context.deps, signedInMemberId(context), code) };
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Turns two-factor sign-in off; needs a current code or a recovery code.' })
  async disableTwoFactor(@Arg('code', () => String) code: string, @Ctx() context: AdminContext): Promise<boolean> {
    await disableTwoFactor(context.em, context.deps, signedInMemberId(context), code);
    return true;
  }

  @Authorized()
  @Mutation(() => RecoveryCodesType, {
    description: 'Ten new recovery codes in place of the old ones; needs a current code or a recovery code.',
  })
  async regenerateRecoveryCodes(
    @Arg('code', () => String) code: string,
    @Ctx() context: AdminContext,
  ): Promise<RecoveryCodesType> {
    return { codes: await regenerateRecoveryCodes(context.em, context.deps, signedInMemberId(context), code) };
  }

  @Authorized()
  @Mutation(() => MemberType, {
    description:
      "Owners, and admins for members. Removes a member's second factor, recovery codes and passkeys (they enrol anew).",
  })
  async resetMemberTwoFactor(@Arg('id', () => ID) id: string, @Ctx() context: AdminContext): Promise<MemberType> {
    const memberId = parseId(id, 'id');
    await resetMemberTwoFactor(context.em, await actingMember(context), memberId);
    const found = await findMember(context.em.fork(), memberId);
    if (found === null) {
      throw notFound('Member');
    }
    return presentMember(found);
  }
}
