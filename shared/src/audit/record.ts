// The one way to write the audit log, used by the admin API's mutation recorder and by jobs (the
// retention runs). Kept deliberately narrow: an entry carries ids, counts and names chosen by the
// code, never a value someone typed in (a password, a secret, a webhook URL, a submitted field).
import { randomUUID } from 'node:crypto';
import type { Em } from '../db/orm.js';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema } from '../entities/audit-chain.js';
import {
  AuditEntrySchema,
  type AuditActorKind,
  type AuditDetails,
  type AuditOutcome,
} from '../entities/audit-entry.js';
import type { AuditChainKey } from './chain-key.js';
import { canonicalEntry, chainedFields, nextLink } from './chain.js';
import { chainBacklog, headLink, readChainHead } from './chain-head.js';

/** Who acted. `name` is copied into the entry so it stays readable after the actor is deleted. */
export interface AuditActor {
  /**
   * `admin`: a signed-in administrator (id = admin id, name = e-mail).
   * `api_token`: an integrator's token (id = token id, name = the token's name and its member's e-mail).
   * `system`: the service itself, e.g. a retention run (no id; name says which job).
   * `anonymous`: nobody authenticated, e.g. a failed sign-in (name = the e-mail tried).
   */
  kind: AuditActorKind;
  id?: string | null;
  name: string;
}

/**
 * One audit entry as callers describe it. Stable contract:
 *
 * - `action`: what happened, `noun.verb` for jobs (`retention.run`) or the GraphQL mutation's
 *   field name for API calls (`createSite`, `login`).
 * - `objectType` / `objectId`: the object acted on (`Site` + its id), when there is one.
 * - `details`: small, explicitly chosen facts: counts, formats, lists of ids. NEVER argument
 *   values in general: no passwords, secrets, tokens, URLs, e-mail bodies or submitted values.
 * - `outcome`: `failure` entries carry `errorCode` (a GraphQL `extensions.code` such as
 *   `NOT_FOUND`), never an error message, which could echo input.
 * - `address` / `requestId`: the client address (as TRUST_PROXY decides it) and the request id the
 *   client got in `X-Request-Id`; absent for jobs.
 * - `at`: defaults to now.
 */
export interface AuditEntryInput {
  actor: AuditActor;
  action: string;
  objectType?: string | null;
  objectId?: string | null;
  details?: AuditDetails | null;
  address?: string | null;
  requestId?: string | null;
  outcome: AuditOutcome;
  errorCode?: string | null;
  at?: Date;
}

/** The system actor for jobs; `name` says which one (e.g. `retention`). */
export function systemActor(name: string): AuditActor {
  return { kind: 'system', name };
}

// Column widths from the migration: an over-long value is cut, not a reason to lose the entry.
function cut(value: string | null | undefined, length: number): string | null {
  return value == null ? null : value.slice(0, length);
}

/**
 * Appends one entry to the chain: in a transaction (a savepoint inside the caller's) that locks the
 * chain's head, so concurrent writers, in this process or another, take sequence numbers one after
 * the other and each entry's hash follows the one before it. A plain insert, outside `em`'s unit of
 * work, so pending changes of the caller are not flushed with it. Inside `em.transactional(...)` the
 * entry commits or rolls back with the caller's work (and holds the head's lock until then). Throws
 * when the insert fails; callers decide whether that matters.
 */
export async function recordAuditEntry(em: Em, chain: AuditChainKey, entry: AuditEntryInput): Promise<void> {
  const row = {
    id: randomUUID(),
    at: entry.at ?? new Date(),
    actorKind: entry.actor.kind,
    actorId: cut(entry.actor.id, 64),
    actorName: cut(entry.actor.name, 320) ?? '',
    action: cut(entry.action, 100) ?? '',
    objectType: cut(entry.objectType, 64),
    objectId: cut(entry.objectId, 100),
    outcome: entry.outcome,
    errorCode: cut(entry.errorCode, 64),
    address: cut(entry.address, 64),
    requestId: cut(entry.requestId, 128),
    details: entry.details ?? null,
  };
  await em.transactional(async (tx) => {
    const head = await chainBacklog(tx, chain, await readChainHead(tx, true));
    const seq = head.seq + 1;
    const link = nextLink(chain.key, headLink(head), canonicalEntry(chainedFields({ ...row, seq })));
    await tx.insert(AuditEntrySchema, { ...row, seq, ...link });
    await tx.nativeUpdate(
      AuditChainHeadSchema,
      { id: AUDIT_CHAIN_HEAD_ID },
      { seq, chainedSeq: seq, ...link, keyId: head.keyId ?? chain.keyId },
    );
  });
}
