import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idProperty } from './timestamps.js';

/** The one row of audit_chain_head. */
export const AUDIT_CHAIN_HEAD_ID = 1;

// The end and the start of the audit log's chain, in one row. Every append locks it
// (`FOR UPDATE`), so entries get their sequence numbers in one order even when several processes
// write at once; retention moves the anchor (the last removed entry) forward before deleting.
export const AuditChainHeadSchema = defineEntity({
  name: 'AuditChainHead',
  tableName: 'audit_chain_head',
  properties: {
    id: p.integer().primary().autoincrement(false),
    /** The last sequence number given out. */
    seq: p.bigint('number'),
    /** The chained hash and digest of entry `seq`; null while nothing is chained. */
    hash: p.string().length(64).nullable(),
    digest: p.string().length(64).nullable(),
    /**
     * Entries up to here carry their hash: equal to `seq` since every entry is chained as it is
     * written (the entries from before the chain were chained with the migration that numbered
     * them); a head whose `chainedSeq` is not its `seq` was moved back by hand.
     */
    chainedSeq: p.bigint('number'),
    /** The last entry removed by retention (0: none), and its hash and digest: where the rest starts. */
    anchorSeq: p.bigint('number'),
    anchorHash: p.string().length(64).nullable(),
    anchorDigest: p.string().length(64).nullable(),
    /** Which chain key wrote the chain (a fingerprint, not the key): tells a changed key from tampering. */
    keyId: p.string().length(32).nullable(),
  },
});

export type AuditChainHead = InferEntity<typeof AuditChainHeadSchema>;

export const AUDIT_CHECKPOINT_KINDS = ['checkpoint', 'anchor'] as const;
export type AuditCheckpointKind = (typeof AUDIT_CHECKPOINT_KINDS)[number];

// A signed statement of the chain at one entry: `checkpoint` (made regularly, and for every export)
// or `anchor` (made by retention for the last entry it removed). The signature is a compact JWS
// (EdDSA) with the receipt signing key; null when no signing key was available. Checkpoints form a
// chain of their own: `count` numbers them 1, 2, 3, … and `previous` is the SHA-256 of the one
// before (statementHash); both null on anchors and on checkpoints from before the chain.
export const AuditCheckpointSchema = defineEntity({
  name: 'AuditCheckpoint',
  tableName: 'audit_checkpoints',
  properties: {
    id: idProperty(),
    kind: p.enum(AUDIT_CHECKPOINT_KINDS).columnType('varchar(16)'),
    seq: p.bigint('number'),
    hash: p.string().length(64),
    digest: p.string().length(64),
    at: p.datetime(),
    signature: p.text().nullable(),
    count: p.bigint('number').nullable().unique(),
    previous: p.string().length(64).nullable(),
  },
  indexes: [{ name: 'audit_checkpoints_seq_index', properties: ['seq'] }],
});

export type AuditCheckpoint = InferEntity<typeof AuditCheckpointSchema>;
