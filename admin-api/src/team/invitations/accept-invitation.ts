// Accepting an invitation (public: the link is the credential): the invited member becomes active
// with the name and password they chose, the link is marked used, and they are signed in exactly as
// `login` signs in (a bearer token and the console's session). Under the invitation attempt limit,
// so links cannot be guessed; the token is only ever compared by its hash.
import { recordAuditEntry } from '@intake/shared/audit';
import { hashInvitationToken } from '@intake/shared/delivery';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { startSession } from '../../access/admin-sessions.js';
import type { AdminDeps } from '../../context.js';
import { findInvitation } from './find-invitation.js';
import { invitationState, type InvitationState } from '../../access/invitation-state.js';
import { badUserInput } from '../../errors.js';
import type { AcceptInvitationInput } from './invitation.input.js';
import type { LoggedIn } from '../../access/issue-sign-in.js';
import { consumeInvitationAttempt } from './invitation-attempts.js';

const REFUSALS: Record<Exclude<InvitationState, 'VALID'>, string> = {
  USED: 'was already used: sign in with your e-mail and password',
  EXPIRED: 'has expired: ask for a new invitation',
  REVOKED: 'was revoked or replaced by a newer one: ask for a new invitation',
};

function refused(state: Exclude<InvitationState, 'VALID'>): Error {
  return badUserInput('input.token', REFUSALS[state]);
}

export interface AcceptRequest {
  input: AcceptInvitationInput;
  clientAddress: string;
  requestId: string;
}

export async function acceptInvitation(em: Em, deps: AdminDeps, request: AcceptRequest): Promise<LoggedIn> {
  const { input, clientAddress } = request;
  await consumeInvitationAttempt(deps, clientAddress);
  const found = await findInvitation(em, input.token);
  if (found.state !== 'VALID' || found.member === null) {
    throw refused(found.state === 'VALID' ? 'REVOKED' : found.state);
  }
  const passwordHash = await hashPassword(input.password);
  const member = await em.transactional(async (tx) => {
    const now = new Date();
    // Only while the link still holds: of two acceptances at once, one wins and the other is told USED.
    const changed = await tx.nativeUpdate(
      AdminUserSchema,
      {
        id: found.member!.id,
        status: 'invited',
        invitationTokenHash: hashInvitationToken(input.token),
        invitationUsedAt: null,
        invitationExpiresAt: { $gt: now },
      },
      { status: 'active', name: input.name, passwordHash, passwordChangedAt: now, invitationUsedAt: now },
    );
    const joined = await tx.findOne(AdminUserSchema, { id: found.member!.id }, { refresh: true });
    if (changed === 0 || joined === null) {
      const state = invitationState(joined);
      throw refused(state === 'VALID' ? 'USED' : state);
    }
    await recordAuditEntry(tx, deps.services.auditChain, {
      actor: { kind: 'admin', id: joined.id, name: joined.email },
      action: 'member.joined',
      objectType: 'Member',
      objectId: joined.id,
      details: { email: joined.email, name: joined.name, role: joined.role },
      outcome: 'success',
      address: clientAddress,
      requestId: request.requestId,
    });
    return joined;
  });
  const issued = deps.adminTokens.issue(member.id, member.passwordChangedAt);
  const session = await startSession(em, member.id, deps.services.config.adminTokenTtlSeconds);
  return { issued, session };
}
