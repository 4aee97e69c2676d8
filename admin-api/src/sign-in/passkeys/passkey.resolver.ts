// Passkeys (docs/sign-in.md): a member registers, names and removes their own; a passkey signs in
// alone or serves as the second factor after a password. The browser's answers are arguments of
// type JSONObject, which the audit log never copies; the sign-in method is noted for it instead.
import { PASSKEY_NAME_MAX_LENGTH } from '@intake/shared/input-fields';
import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, ID, Info, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { noteSignInAttempt } from '../../lib/audit-notes.js';
import { listPasskeys } from './passkeys.js';
import { relyingParty } from './relying-party.js';
import { removePasskey, renamePasskey } from './manage-passkeys.js';
import { finishPasskeySignIn, startPasskeySignIn, type PasskeySignInOutcome } from './passkey-sign-in.js';
import { finishPasskeyRegistration, startPasskeyRegistration } from './register-passkey.js';
import type { AdminContext } from '../../context.js';
import { presentAuthPayload } from '../presenters.js';
import { presentPasskey } from './presenters.js';
import { AuthPayloadType } from '../sign-in.type.js';
import { PasskeyType } from './passkey.type.js';
import { codePoints, isPlainText, parseId } from '../../validation/fields.js';
import { parseInput } from '../../validation/parse-input.js';
import { signedInMemberId } from '../../access/acting-member.js';

const passkeyName = z
  .string()
  .trim()
  .refine(isPlainText, 'must not contain control characters')
  .refine(
    (value) => codePoints(value) >= 1 && codePoints(value) <= PASSKEY_NAME_MAX_LENGTH,
    `must be between 1 and ${PASSKEY_NAME_MAX_LENGTH} characters`,
  );

function relyingPartyOf(context: AdminContext) {
  return relyingParty(context.deps.publicOrigin());
}

@Resolver()
export class PasskeyResolver {
  @Authorized()
  @Query(() => [PasskeyType], { description: "The signed-in member's passkeys, oldest first." })
  async passkeys(@Ctx() context: AdminContext): Promise<PasskeyType[]> {
    return (await listPasskeys(context.em, signedInMemberId(context))).map(presentPasskey);
  }

  @Authorized()
  @Mutation(() => GraphQLJSONObject, {
    description:
      'Options for `navigator.credentials.create` (hand them to @simplewebauthn/browser `startRegistration`); the challenge in them lasts five minutes.',
  })
  async startPasskeyRegistration(@Ctx() context: AdminContext): Promise<Record<string, unknown>> {
    return { ...(await startPasskeyRegistration(context.em, relyingPartyOf(context), signedInMemberId(context))) };
  }

  @Authorized()
  @Mutation(() => PasskeyType, {
    description: "Stores the passkey the browser made: its answer to startPasskeyRegistration's options.",
  })
  async finishPasskeyRegistration(
    @Arg('name', () => String) name: string,
    @Arg('response', () => GraphQLJSONObject) response: Record<string, unknown>,
    @Ctx() context: AdminContext,
  ): Promise<PasskeyType> {
    const checkedName = parseInput(passkeyName, name, 'name');
    const passkey = await finishPasskeyRegistration(
      context.em,
      relyingPartyOf(context),
      signedInMemberId(context),
      checkedName,
      response,
    );
    return presentPasskey(passkey);
  }

  @Authorized()
  @Mutation(() => PasskeyType, { description: 'Renames one of your passkeys.' })
  async renamePasskey(
    @Arg('id', () => ID) id: string,
    @Arg('name', () => String) name: string,
    @Ctx() context: AdminContext,
  ): Promise<PasskeyType> {
    const passkey = await renamePasskey(
      context.em,
      signedInMemberId(context),
      parseId(id, 'id'),
      parseInput(passkeyName, name, 'name'),
    );
    return presentPasskey(passkey);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Removes one of your passkeys: it signs in no more.' })
  async removePasskey(@Arg('id', () => ID) id: string, @Ctx() context: AdminContext): Promise<boolean> {
    await removePasskey(context.em, signedInMemberId(context), parseId(id, 'id'));
    return true;
  }

  @Mutation(() => GraphQLJSONObject, {
    description:
      "Needs no token. Options for `navigator.credentials.get` (@simplewebauthn/browser `startAuthentication`). Without `challenge`, any passkey of this site signs in alone; with the `extensions.challenge` of a `login` answered with SECOND_FACTOR_REQUIRED, only that member's passkeys, as the second factor.",
  })
  async startPasskeySignIn(
    @Arg('challenge', () => String, { nullable: true }) challenge: string | null | undefined,
    @Ctx() context: AdminContext,
  ): Promise<Record<string, unknown>> {
    const request = { secondFactorChallenge: challenge ?? null, clientAddress: context.clientAddress };
    return { ...(await startPasskeySignIn(context.em, context.deps, relyingPartyOf(context), request)) };
  }

  @Mutation(() => AuthPayloadType, {
    description:
      "Needs no token. Signs in with the browser's answer to startPasskeySignIn's options (and the same `challenge`, when it was given). Sets the session cookie as `login` does.",
  })
  async finishPasskeySignIn(
    @Arg('response', () => GraphQLJSONObject) response: Record<string, unknown>,
    @Arg('challenge', () => String, { nullable: true }) challenge: string | null | undefined,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<AuthPayloadType> {
    const { em, deps, clientAddress, requestId, session } = context;
    const outcome: PasskeySignInOutcome = { member: null, method: null };
    try {
      const loggedIn = await finishPasskeySignIn(
        em,
        deps,
        relyingPartyOf(context),
        { response, secondFactorChallenge: challenge ?? null, clientAddress, requestId },
        outcome,
      );
      session.set(loggedIn.session.secret, loggedIn.session.expiresAt);
      return presentAuthPayload(loggedIn.issued);
    } finally {
      noteSignInAttempt(context.auditNotes, info, outcome.member, {
        succeeded: outcome.method !== null,
        method: outcome.method ?? (challenge ? 'password+passkey' : 'passkey'),
      });
    }
  }
}
