import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idProperty } from './timestamps.js';

/** Who acted: an administrator, an API token, the service itself (retention runs), or nobody known yet (a failed sign-in). */
export const AUDIT_ACTOR_KINDS = ['admin', 'api_token', 'system', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** A value in an entry's details: only ids, counts, flags and names chosen by the code, never input. */
export type AuditDetailValue = string | number | boolean | null | string[];
export type AuditDetails = Record<string, AuditDetailValue>;

/** The width of `actor_name`, in characters (code points, as PostgreSQL counts). */
export const ACTOR_NAME_MAX_LENGTH = 523;

// One administrative action, kept for AUDIT_RETENTION_DAYS. Rows are only ever inserted (and pruned
// by age, from the start); nothing references them, so deleting a site or an admin leaves its
// history readable. The actor's name is copied, not joined, for the same reason.
// `seq`, `hash` and `digest` make the log tamper-evident (docs/audit-log.md, shared/src/audit/chain.ts):
// entries are numbered in the one order they were written, each `hash` is keyed and chained to the
// previous entry's, each `digest` the same without a key (checkable by anyone with an export).
export const AuditEntrySchema = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_log',
  properties: {
    id: idProperty(),
    /** 1, 2, 3, …: the order of writing, without gaps until retention removes a prefix. */
    seq: p.bigint('number').unique(),
    /** HMAC-SHA256 (hex) over the previous entry's hash and this entry; null until chained (entries from before the chain). */
    hash: p.string().length(64).nullable(),
    /** SHA-256 (hex) over the previous entry's digest and this entry; null until chained. */
    digest: p.string().length(64).nullable(),
    at: p.datetime(),
    actorKind: p.enum(AUDIT_ACTOR_KINDS).columnType('varchar(16)'),
    actorId: p.string().length(64).nullable(),
    /** An API token's name (200 characters at most) with its member's e-mail (320) fits whole. */
    actorName: p.string().length(ACTOR_NAME_MAX_LENGTH),
    action: p.string().length(100),
    objectType: p.string().length(64).nullable(),
    objectId: p.string().length(100).nullable(),
    outcome: p.enum(AUDIT_OUTCOMES).columnType('varchar(16)'),
    errorCode: p.string().length(64).nullable(),
    address: p.string().length(64).nullable(),
    requestId: p.string().length(128).nullable(),
    details: p.json<AuditDetails>().nullable(),
  },
  indexes: [
    // Newest first, paged by (at, id); also the retention prune.
    { name: 'audit_log_at_id_index', properties: ['at', 'id'] },
    // The console's filters: one actor, one action, one object.
    { name: 'audit_log_actor_id_at_index', properties: ['actorId', 'at'] },
    { name: 'audit_log_action_at_index', properties: ['action', 'at'] },
    { name: 'audit_log_object_id_at_index', properties: ['objectId', 'at'] },
  ],
});

export type AuditEntry = InferEntity<typeof AuditEntrySchema>;
