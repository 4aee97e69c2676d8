// The chain's head row: read (optionally locked for the rest of the transaction) and brought up to
// date. Raw SQL for the lock, so it works the same through PGlite and PostgreSQL.
import type { Em } from '../db/orm.js';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChainKey } from './chain-key.js';
import { canonicalEntry, chainedFields, nextLink, type ChainLink } from './chain.js';

export interface ChainHead {
  seq: number;
  hash: string | null;
  digest: string | null;
  chainedSeq: number;
  anchorSeq: number;
  anchorHash: string | null;
  anchorDigest: string | null;
  keyId: string | null;
}

interface HeadRow {
  seq: unknown;
  hash: string | null;
  digest: string | null;
  chained_seq: unknown;
  anchor_seq: unknown;
  anchor_hash: string | null;
  anchor_digest: string | null;
  key_id: string | null;
}

const HEAD_SQL = `select "seq", "hash", "digest", "chained_seq", "anchor_seq", "anchor_hash", "anchor_digest", "key_id"
  from "audit_chain_head" where "id" = ${AUDIT_CHAIN_HEAD_ID}`;

/** The head; `lock`: `FOR UPDATE`, held until `em`'s transaction ends (every writer waits its turn). */
export async function readChainHead(em: Em, lock: boolean): Promise<ChainHead> {
  const rows = await em.execute<HeadRow[]>(lock ? `${HEAD_SQL} for update` : HEAD_SQL);
  const row = rows[0];
  if (row === undefined) {
    throw new Error('the audit chain head is missing: run the migrations');
  }
  // int8 arrives as a string from node-postgres; Number is exact far beyond any log's length.
  return {
    seq: Number(row.seq),
    hash: row.hash,
    digest: row.digest,
    chainedSeq: Number(row.chained_seq),
    anchorSeq: Number(row.anchor_seq),
    anchorHash: row.anchor_hash,
    anchorDigest: row.anchor_digest,
    keyId: row.key_id,
  };
}

/** Where the chain continues after its last chained entry. */
export function headLink(head: ChainHead): ChainLink {
  return head.chainedSeq === head.anchorSeq
    ? { hash: head.anchorHash ?? '', digest: head.anchorDigest ?? '' }
    : { hash: head.hash ?? '', digest: head.digest ?? '' };
}

const BACKLOG_BATCH = 500;

/**
 * Chains the entries numbered but not yet chained (those from before the chain existed), in their
 * order, with `head` locked by the caller's transaction. Returns the head as it then is.
 */
export async function chainBacklog(tx: Em, chain: AuditChainKey, head: ChainHead): Promise<ChainHead> {
  if (head.chainedSeq >= head.seq) {
    return head;
  }
  let link = headLink(head);
  let after = head.chainedSeq;
  for (;;) {
    const entries = await tx.find(
      AuditEntrySchema,
      { seq: { $gt: after, $lte: head.seq } },
      { orderBy: { seq: 'asc' }, limit: BACKLOG_BATCH, disableIdentityMap: true },
    );
    for (const entry of entries) {
      link = nextLink(chain.key, link, canonicalEntry(chainedFields(entry)));
      await tx.nativeUpdate(AuditEntrySchema, { id: entry.id }, link);
      after = entry.seq;
    }
    if (entries.length < BACKLOG_BATCH) {
      break;
    }
  }
  const updated: ChainHead = {
    ...head,
    chainedSeq: head.seq,
    hash: link.hash,
    digest: link.digest,
    keyId: head.keyId ?? chain.keyId,
  };
  await tx.nativeUpdate(
    AuditChainHeadSchema,
    { id: AUDIT_CHAIN_HEAD_ID },
    { chainedSeq: updated.chainedSeq, hash: updated.hash, digest: updated.digest, keyId: updated.keyId },
  );
  return updated;
}

/** Chains any entries from before the chain (at start, so the first request does not wait for it). */
export async function ensureAuditChain(em: Em, chain: AuditChainKey): Promise<void> {
  const head = await readChainHead(em.fork(), false);
  if (head.chainedSeq < head.seq) {
    await em.fork().transactional(async (tx) => chainBacklog(tx, chain, await readChainHead(tx, true)));
  }
}
