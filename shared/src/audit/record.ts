// The one way to write the audit log, used by the admin API's mutation recorder and by jobs (the
// retention runs). Kept deliberately narrow: an entry carries ids, counts and names chosen by the
// code, never a value someone typed in (a password, a secret, a webhook URL, a submitted field).
import { randomUUID } from 'node:crypto';
import type { Em } from '../db/orm.js';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema } from '../entities/audit-chain.js';
import {
  ACTOR_NAME_MAX_LENGTH,
  AuditEntrySchema,
  type AuditActorKind,
  type AuditEntry,
  type AuditDetails,
  type AuditOutcome,
} from '../entities/audit-entry.js';
import type { AuditChainKey } from './chain-key.js';
import { canonicalEntry, chainedFields, nextLink } from './chain.js';
import { headLink, readChainHead } from './chain-head.js';

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

/** The actor's name in an entry that could not be stored as described (see recordAuditEntry). */
export const NAME_NOT_RECORDED = '(name not recorded)';

/** Well-formed text without NUL: a lone surrogate becomes U+FFFD, as does NUL (PostgreSQL refuses it in text and JSON). */
function storable(value: string): string {
  return value.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/**
 * A value cut to its column's width in code points, as PostgreSQL's varchar(n) counts (cutting
 * UTF-16 units split a surrogate pair, and the entry could then not be written at all).
 */
export function cutToColumn(value: string | null | undefined, length: number): string | null {
  if (value == null) {
    return null;
  }
  const text = storable(value);
  return text.length <= length ? text : Array.from(text).slice(0, length).join('');
}

function storableDetails(details: AuditDetails | null | undefined): AuditDetails | null {
  if (details == null) {
    return null;
  }
  const stored: AuditDetails = {};
  for (const [key, value] of Object.entries(details)) {
    stored[storable(key)] =
      typeof value === 'string' ? storable(value) : Array.isArray(value) ? value.map(storable) : value;
  }
  return stored;
}

type EntryRow = Omit<AuditEntry, 'seq' | 'hash' | 'digest'>;

function rowOf(entry: AuditEntryInput): EntryRow {
  return {
    id: randomUUID(),
    at: entry.at ?? new Date(),
    actorKind: entry.actor.kind,
    actorId: cutToColumn(entry.actor.id, 64),
    actorName: cutToColumn(entry.actor.name, ACTOR_NAME_MAX_LENGTH) ?? '',
    action: cutToColumn(entry.action, 100) ?? '',
    objectType: cutToColumn(entry.objectType, 64),
    objectId: cutToColumn(entry.objectId, 100),
    outcome: entry.outcome,
    errorCode: cutToColumn(entry.errorCode, 64),
    address: cutToColumn(entry.address, 64),
    requestId: cutToColumn(entry.requestId, 128),
    details: storableDetails(entry.details),
  };
}

/** Appends a row to the chain under the head's lock, in a transaction (a savepoint inside the caller's). */
async function append(em: Em, chain: AuditChainKey, row: EntryRow): Promise<number> {
  return em.transactional(async (tx) => {
    const head = await readChainHead(tx, true);
    const seq = head.seq + 1;
    const link = nextLink(chain.key, headLink(head), canonicalEntry(chainedFields({ ...row, seq })));
    await tx.insert(AuditEntrySchema, { ...row, seq, ...link });
    await tx.nativeUpdate(
      AuditChainHeadSchema,
      { id: AUDIT_CHAIN_HEAD_ID },
      { seq, chainedSeq: seq, ...link, keyId: head.keyId ?? chain.keyId },
    );
    return seq;
  });
}

export interface RecordedEntry {
  seq: number;
  /** Why the entry as described was refused, when it was stored without the actor's name and details; else null. */
  refused: Error | null;
}

/**
 * Appends one entry to the chain: in a transaction (a savepoint inside the caller's) that locks the
 * chain's head, so concurrent writers, in this process or another, take sequence numbers one after
 * the other and each entry's hash follows the one before it. The server hashes nothing else: no
 * row it did not write here. A plain insert, outside `em`'s unit of work, so pending changes of the
 * caller are not flushed with it. Inside `em.transactional(...)` the entry commits or rolls back
 * with the caller's work (and holds the head's lock until then).
 *
 * Fails closed: an entry the database refuses as described is written again without the actor's
 * name (NAME_NOT_RECORDED) and details, so an action never goes without its entry for what a
 * caller typed; when that fails too it throws, and a caller in a transaction rolls back with it.
 */
export async function recordAuditEntry(em: Em, chain: AuditChainKey, entry: AuditEntryInput): Promise<RecordedEntry> {
  const row = rowOf(entry);
  try {
    return { seq: await append(em, chain, row), refused: null };
  } catch (error) {
    const seq = await append(em, chain, { ...row, actorName: NAME_NOT_RECORDED, details: null });
    return { seq, refused: error as Error };
  }
}
