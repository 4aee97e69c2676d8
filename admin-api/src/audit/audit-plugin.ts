// Records every executed mutation root field in the audit log: one entry per field (two aliased
// `deleteSite` fields make two), successful or not, with the caller, the client address (as
// TRUST_PROXY decides it) and the request id of X-Request-Id. The entry is written after the field
// resolved and before the answer is sent, on its own (resolvers own their transactions), so a client
// that got an answer can rely on it; an entry refused as described is written without the actor's
// name and details (recordAuditEntry). Not recorded: operations refused before execution, and
// refusals by an attempt limit (RATE_LIMITED), which would let anyone grow the table at request
// rate. The guarantees and the log lines of each failure: docs/submissions.md ("Audit log").
import type { ApolloServerPlugin } from '@apollo/server';
import { recordAuditEntry, type AuditActor } from '@intake/shared/audit';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { AdminContext } from '../context.js';
import { ErrorCode, formatError, isExposedError } from '../errors.js';
import { ANONYMOUS, loginActor, requestActor } from '../lib/audit-actor.js';
import { describeMutation } from './mutation-entry.js';

// Account mutations act on the account of the actor.
const ACCOUNT_ACTIONS = new Set([
  'login',
  'logout',
  'changePassword',
  'verifySecondFactor',
  'startTwoFactorEnrolment',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
  'requestPasswordReset',
  'resetPassword',
  'finishPasskeySignIn',
  'startPasskeyRegistration',
  'finishPasskeyRegistration',
  'confirmSignIn',
  'startPasskeyConfirmation',
]);

function isMutationRootField(info: GraphQLResolveInfo): boolean {
  return info.path.prev === undefined && info.parentType === info.schema.getMutationType();
}

/** The client-facing `extensions.code` of an error, never its message (which may echo input). */
function errorCodeOf(error: Error): string {
  const original = unwrapResolverError(error);
  // What the client got: an exposed error keeps its own code, anything else is classified as
  // formatError does (an outage, an AppError's code, or INTERNAL_SERVER_ERROR).
  if (original instanceof GraphQLError && isExposedError(original) && typeof original.extensions.code === 'string') {
    return original.extensions.code;
  }
  const code = formatError({ message: '' }, error).extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

/** What went wrong, by name and code only: a database error's message and detail may quote the row. */
function errorFacts(error: unknown): { errorName: string; errorCode: unknown } {
  return { errorName: (error as Error).name, errorCode: (error as { code?: unknown }).code };
}

/**
 * A delete, remove or revoke answers `false` when there was no such object (docs/admin-api.md):
 * nothing happened, so the entry says so as the other mutations' NOT_FOUND does.
 */
function answeredNotFound(action: string, result: unknown): boolean {
  return result === false && /^(delete|remove|revoke)[A-Z]/.test(action);
}

interface FieldOutcome {
  info: GraphQLResolveInfo;
  args: Record<string, unknown>;
  error: Error | null;
  result: unknown;
  at: Date;
}

async function recordField(context: AdminContext, actor: AuditActor, outcome: FieldOutcome): Promise<void> {
  const { info, args, error, at } = outcome;
  const action = info.fieldName;
  const field = info.parentType.getFields()[action];
  const notFound = error === null && answeredNotFound(action, outcome.result);
  const errorCode = error !== null ? errorCodeOf(error) : notFound ? ErrorCode.NOT_FOUND : null;
  if (errorCode === ErrorCode.RATE_LIMITED) {
    return;
  }
  try {
    // A fork per entry: the entries of one operation may be written concurrently.
    const em = context.deps.services.db.em.fork();
    const note = context.auditNotes.get(String(info.path.key));
    const who = note?.actor ?? (action === 'login' ? await loginActor(em, args.email, error === null) : actor);
    const described =
      field === undefined
        ? { objectType: null, objectId: null, details: {} }
        : describeMutation(field, args, error === null ? outcome.result : undefined);
    const object = { ...described, details: { ...described.details, ...note?.details } };
    const account = ACCOUNT_ACTIONS.has(action) && who.id ? { objectType: 'AdminUser', objectId: who.id } : {};
    const recorded = await recordAuditEntry(em, context.deps.services.auditChain, {
      actor: who,
      action,
      ...object,
      ...account,
      details: Object.keys(object.details).length === 0 ? null : object.details,
      outcome: errorCode === null ? 'success' : 'failure',
      errorCode,
      address: context.clientAddress,
      requestId: context.requestId,
      at,
    });
    if (recorded.refused !== null) {
      context.logger.error(
        { ...errorFacts(recorded.refused), requestId: context.requestId, action, seq: recorded.seq },
        'audit entry written without the actor name',
      );
    }
  } catch (writeError) {
    context.logger.error(
      { ...errorFacts(writeError), requestId: context.requestId, action },
      'audit entry not written',
    );
  }
}

export function auditPlugin(): ApolloServerPlugin<AdminContext> {
  return {
    async requestDidStart() {
      const writes: Promise<void>[] = [];
      return {
        async executionDidStart({ contextValue, operation }) {
          if (operation.operation !== 'mutation') {
            return;
          }
          // Before any field runs: `logout` deletes the session that says who is signing out.
          let actor: AuditActor;
          try {
            const em = contextValue.deps.services.db.em.fork();
            actor = await requestActor(em, contextValue.principal, contextValue.session.read());
          } catch (error) {
            contextValue.logger.warn({ err: error, requestId: contextValue.requestId }, 'audit actor unknown');
            actor = ANONYMOUS;
          }
          return {
            willResolveField({ info, args }) {
              if (!isMutationRootField(info)) {
                return undefined;
              }
              return (error, result) => {
                writes.push(recordField(contextValue, actor, { info, args, error, result, at: new Date() }));
              };
            },
          };
        },
        async willSendResponse() {
          await Promise.all(writes);
        },
      };
    },
  };
}
