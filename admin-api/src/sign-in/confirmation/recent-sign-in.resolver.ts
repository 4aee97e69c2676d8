// Confirming a sign-in (docs/sign-in.md#recent-sign-in): what opens the operations that need a
// recent sign-in to a session or admin token started more than RECENT_SIGN_IN_SECONDS ago. The
// password, code and passkey answer are arguments of type String and JSONObject, which the audit log
// never copies; the method is noted for it instead.
import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Info, Mutation, Resolver } from 'type-graphql';
import { noteAudit } from '../../lib/audit-notes.js';
import { relyingParty } from '../passkeys/relying-party.js';
import { confirmSignIn, type ConfirmationMethod } from './confirm-sign-in.js';
import { startPasskeyConfirmation } from '../passkeys/passkey-confirmation.js';
import type { AdminContext } from '../../context.js';
import { presentAuthPayload } from '../presenters.js';
import { AuthPayloadType } from '../sign-in.type.js';
import { signedInMemberId } from '../../access/acting-member.js';

function relyingPartyOf(context: AdminContext) {
  return relyingParty(context.deps.publicOrigin());
}

@Resolver()
export class RecentSignInResolver {
  @Authorized()
  @Mutation(() => AuthPayloadType, {
    description:
      'Confirms it is you, with exactly one of `password`, `code` (authenticator app or recovery code) or `passkeyResponse` (the answer to startPasskeyConfirmation): a new admin token and console session, started now, so the operations that need a recent sign-in are open for 10 minutes. The session the request came with ends.',
  })
  async confirmSignIn(
    @Arg('password', () => String, { nullable: true }) password: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Arg('passkeyResponse', () => GraphQLJSONObject, { nullable: true })
    passkeyResponse: Record<string, unknown> | null | undefined,
    @Ctx() context: AdminContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<AuthPayloadType> {
    const outcome: { method: ConfirmationMethod | null; succeeded: boolean } = { method: null, succeeded: false };
    try {
      const loggedIn = await confirmSignIn(
        context.em,
        context.deps,
        {
          adminId: signedInMemberId(context),
          password: password ?? null,
          code: code ?? null,
          passkeyResponse: passkeyResponse ?? null,
          relyingParty: () => relyingPartyOf(context),
          // Only the cookie's own session ends; an admin token has none to end.
          sessionSecret: context.authorization === undefined ? context.session.read() : undefined,
          clientAddress: context.clientAddress,
        },
        outcome,
      );
      context.session.set(loggedIn.session.secret, loggedIn.session.expiresAt);
      return presentAuthPayload(loggedIn.issued);
    } finally {
      if (outcome.method !== null) {
        noteAudit(context.auditNotes, info, { details: { method: outcome.method } });
      }
    }
  }

  @Authorized()
  @Mutation(() => GraphQLJSONObject, {
    description:
      'Options for `navigator.credentials.get` (@simplewebauthn/browser `startAuthentication`) that only your passkeys answer; the answer goes to `confirmSignIn(passkeyResponse:)`. The challenge lasts five minutes.',
  })
  async startPasskeyConfirmation(@Ctx() context: AdminContext): Promise<Record<string, unknown>> {
    const request = { adminId: signedInMemberId(context), clientAddress: context.clientAddress };
    return { ...(await startPasskeyConfirmation(context.em, context.deps, relyingPartyOf(context), request)) };
  }
}
