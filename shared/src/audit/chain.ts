// What is chained: each entry in canonical JSON (RFC 8785, by the `canonicalize` library, so any
// verifier gets the same bytes), hashed twice after the previous entry's values:
//   hash_n   = HMAC-SHA256(key, hash_{n-1} ‖ canonical(entry_n))   — needs the server's key
//   digest_n = SHA-256(digest_{n-1} ‖ canonical(entry_n))          — anyone can recompute it
// with hex strings for hash and digest and '' before the first entry. The hash shows an edit by
// someone without the key; the digest, signed in checkpoints, lets an export be checked offline
// with only the public key (docs/audit-log.md).
import { createHash, createHmac } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuditEntry } from '../entities/audit-entry.js';

/** The fields of an entry that the chain covers: all it stores but its own hash and digest. */
export interface ChainedFields {
  seq: number;
  id: string;
  at: string;
  actorKind: string;
  actorId: string | null;
  actorName: string;
  action: string;
  objectType: string | null;
  objectId: string | null;
  outcome: string;
  errorCode: string | null;
  address: string | null;
  requestId: string | null;
  details: unknown;
}

export function chainedFields(entry: Omit<AuditEntry, 'hash' | 'digest'>): ChainedFields {
  return {
    seq: entry.seq,
    id: entry.id,
    at: entry.at.toISOString(),
    actorKind: entry.actorKind,
    actorId: entry.actorId ?? null,
    actorName: entry.actorName,
    action: entry.action,
    objectType: entry.objectType ?? null,
    objectId: entry.objectId ?? null,
    outcome: entry.outcome,
    errorCode: entry.errorCode ?? null,
    address: entry.address ?? null,
    requestId: entry.requestId ?? null,
    details: entry.details ?? null,
  };
}

export function canonicalEntry(fields: ChainedFields): string {
  const text = canonicalize(fields);
  if (text === undefined) {
    throw new Error('an audit entry has no canonical JSON form');
  }
  return text;
}

/** Where the chain stands after an entry (or at its start: both ''). */
export interface ChainLink {
  hash: string;
  digest: string;
}

export const CHAIN_START: ChainLink = { hash: '', digest: '' };

export function nextLink(key: Buffer, previous: ChainLink, canonical: string): ChainLink {
  return {
    hash: createHmac('sha256', key).update(previous.hash).update(canonical).digest('hex'),
    digest: createHash('sha256').update(previous.digest).update(canonical).digest('hex'),
  };
}
