// Single sign-on in the API: what the sign-in page offers (public), the second step after a single
// sign-on (public: the HttpOnly cookie the callback set stands in for the provider), the team's
// policy on passwords beside it (read by those who manage members, changed by owners), and an owner
// unlinking a member from their account at the provider. The sign-in itself is a pair of browser routes, not GraphQL
// (oidc-routes.ts).
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { findChallenge } from '../two-factor/challenges.js';
import { secondFactorMethods } from '../password/login.js';
import { updateSsoPolicy } from './update-sso-policy.js';
import { unlinkSsoAccount } from './unlink-sso-account.js';
import type { AdminContext } from '../../context.js';
import { presentMember } from '../../team/members/presenters.js';
import { readSsoPolicy } from './sso-policy.js';
import { findMember } from '../../access/find-admin.js';
import { notFound } from '../../errors.js';
import { MemberType } from '../../team/members/member.type.js';
import { SignInOptionsType, SsoPolicyType, SsoSecondFactorType } from './sso.type.js';
import { parseId } from '../../validation/fields.js';
import { actingMember } from '../../access/acting-member.js';
import { AdminUserSchema, type SsoPolicy } from '@intake/shared/entities';

const START_PATH = '/auth/oidc/start';

function presentPolicy(policy: SsoPolicy, ssoConfigured: boolean): SsoPolicyType {
  return { ssoConfigured, passwordSignIn: policy.passwordSignIn, updatedAt: policy.updatedAt.toISOString() };
}

@Resolver()
export class SsoResolver {
  @Query(() => SignInOptionsType, { description: 'Needs no token: the ways in the sign-in page offers.' })
  async signInOptions(@Ctx() { em, deps }: AdminContext): Promise<SignInOptionsType> {
    const { oidc, delivery } = deps.services.config;
    const passwordResetByEmail = Boolean(delivery.smtpUrl);
    if (oidc === undefined) {
      return { sso: null, passwords: true, passwordResetByEmail };
    }
    const policy = await readSsoPolicy(em);
    return {
      sso: { name: oidc.providerName, startPath: START_PATH },
      passwords: policy.passwordSignIn,
      passwordResetByEmail,
    };
  }

  @Query(() => SsoSecondFactorType, {
    nullable: true,
    description:
      'Needs no token. After a single sign-on of a member with a second factor, the step the sign-in page asks for (read from the HttpOnly cookie the callback set); null when this browser has none that still holds.',
  })
  async ssoSecondFactor(@Ctx() { em, ssoSecondFactor }: AdminContext): Promise<SsoSecondFactorType | null> {
    const challenge = ssoSecondFactor.read();
    const found = challenge === undefined ? null : await findChallenge(em, challenge);
    const member =
      found === null || found.sso === null
        ? null
        : await em.findOne(AdminUserSchema, { id: found.adminId, status: 'active' });
    if (challenge === undefined || found === null || member === null) {
      return null;
    }
    const methods = await secondFactorMethods(em, member);
    return { challenge, challengeExpiresAt: found.expiresAt.toISOString(), methods };
  }

  @Authorized()
  @Query(() => SsoPolicyType, { description: 'The team policy on passwords beside single sign-on.' })
  async ssoPolicy(@Ctx() { em, deps }: AdminContext): Promise<SsoPolicyType> {
    return presentPolicy(await readSsoPolicy(em), deps.services.config.oidc !== undefined);
  }

  @Authorized()
  @Mutation(() => SsoPolicyType, {
    description:
      'Owners only. `passwordSignIn: false` refuses passwords to members and admins who can use single sign-on; owners keep theirs.',
  })
  async updateSsoPolicy(
    @Arg('passwordSignIn', () => Boolean) passwordSignIn: boolean,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<SsoPolicyType> {
    return presentPolicy(await updateSsoPolicy(em, passwordSignIn), deps.services.config.oidc !== undefined);
  }

  @Authorized()
  @Mutation(() => MemberType, {
    description:
      "Owners only. Forgets the member's account at the OpenID provider: the next account to sign in with their verified e-mail is linked instead.",
  })
  async unlinkSsoAccount(@Arg('id', () => ID) id: string, @Ctx() context: AdminContext): Promise<MemberType> {
    const memberId = parseId(id, 'id');
    await unlinkSsoAccount(context.em, await actingMember(context), memberId);
    const found = await findMember(context.em.fork(), memberId);
    if (found === null) {
      throw notFound('Member');
    }
    return presentMember(found);
  }
}
