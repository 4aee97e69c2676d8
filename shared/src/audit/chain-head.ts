// The chain's head row, read (optionally locked for the rest of the transaction). Raw SQL for the
// lock, so it works the same through PGlite and PostgreSQL. Nothing here hashes an entry: the server
// hashes only the entry it writes, in the transaction that writes it (record.ts, prechain.ts).
import type { Em } from '../db/orm.js';
import { AUDIT_CHAIN_HEAD_ID } from '../entities/audit-chain.js';
import type { ChainLink } from './chain.js';

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

/** Where the chain continues: after its last entry, or after the anchor when retention removed every entry. */
export function headLink(head: ChainHead): ChainLink {
  return head.seq === head.anchorSeq
    ? { hash: head.anchorHash ?? '', digest: head.anchorDigest ?? '' }
    : { hash: head.hash ?? '', digest: head.digest ?? '' };
}
