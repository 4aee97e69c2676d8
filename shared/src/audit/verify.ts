// Checks the audit log against its chain: walks every entry after the anchor in sequence order,
// recomputes its hash and digest, and compares the checkpoints. Reports the first entry that was
// changed, removed or moved. Reads one snapshot (repeatable read), so entries written meanwhile
// are not mistaken for damage.
import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChain } from './audit-chain.js';
import { canonicalEntry, chainedFields, nextLink, type ChainLink } from './chain.js';
import { ensureAuditChain, readChainHead, type ChainHead } from './chain-head.js';
import { checkpointIsSigned } from './checkpoints.js';

export interface AuditVerification {
  valid: boolean;
  /** Entries whose hash was recomputed and matched. */
  checkedEntries: number;
  /** The sequence number of the first entry found changed, missing or out of place. */
  firstBadSequence: number | null;
  problem: string | null;
}

const BATCH = 1000;

function bad(checkedEntries: number, seq: number, problem: string): AuditVerification {
  return { valid: false, checkedEntries, firstBadSequence: seq, problem };
}

/** Anchors and checkpoints by sequence number; those whose signature fails are reported on their own. */
async function loadCheckpoints(tx: Em, chain: AuditChain, head: ChainHead) {
  const all = await tx.find(AuditCheckpointSchema, {}, { orderBy: { seq: 'asc', at: 'asc' } });
  const signed: AuditCheckpoint[] = [];
  let forged: AuditCheckpoint | null = null;
  for (const checkpoint of all) {
    if (await checkpointIsSigned(chain, checkpoint)) {
      signed.push(checkpoint);
    } else if (checkpoint.seq > head.anchorSeq && (forged === null || checkpoint.seq < forged.seq)) {
      forged = checkpoint;
    }
  }
  return { signed, forged };
}

/** A problem with the start: entries removed without a signed anchor for them. */
function startProblem(head: ChainHead, anchors: AuditCheckpoint[]): AuditVerification | null {
  if (head.anchorSeq === 0) {
    return null;
  }
  const proven = anchors.some(
    (anchor) => anchor.seq === head.anchorSeq && anchor.hash === head.anchorHash && anchor.digest === head.anchorDigest,
  );
  if (proven) {
    return null;
  }
  const earlier = anchors.filter((anchor) => anchor.seq < head.anchorSeq).at(-1)?.seq ?? 0;
  return bad(
    0,
    earlier + 1,
    `entries up to ${head.anchorSeq} were removed, but no signed anchor says retention removed them`,
  );
}

async function walk(tx: Em, chain: AuditChain, head: ChainHead, checkpoints: Map<number, AuditCheckpoint[]>) {
  let link: ChainLink = { hash: head.anchorHash ?? '', digest: head.anchorDigest ?? '' };
  let expected = head.anchorSeq + 1;
  let checked = 0;
  for (;;) {
    const entries = await tx.find(
      AuditEntrySchema,
      { seq: { $gte: expected, $lte: head.seq } },
      { orderBy: { seq: 'asc' }, limit: BATCH, disableIdentityMap: true },
    );
    for (const entry of entries) {
      if (entry.seq !== expected) {
        return bad(checked, expected, `entry ${expected} is missing`);
      }
      const next = nextLink(chain.key, link, canonicalEntry(chainedFields(entry)));
      if (entry.hash !== next.hash) {
        return bad(
          checked,
          entry.seq,
          `entry ${entry.seq} does not match its hash: it was changed, or moved from elsewhere in the log`,
        );
      }
      if (entry.digest !== next.digest) {
        return bad(checked, entry.seq, `entry ${entry.seq} does not match its digest`);
      }
      const stated = checkpoints.get(entry.seq) ?? [];
      if (stated.some((checkpoint) => checkpoint.hash !== next.hash || checkpoint.digest !== next.digest)) {
        return bad(checked, entry.seq, `entry ${entry.seq} differs from what a signed checkpoint says of it`);
      }
      checked += 1;
      link = next;
      expected += 1;
    }
    if (entries.length < BATCH) {
      break;
    }
  }
  return { checked, last: expected - 1, link };
}

export async function verifyAuditLog(em: Em, chain: AuditChain): Promise<AuditVerification> {
  await ensureAuditChain(em, chain);
  return em.fork().transactional(
    async (tx) => {
      const head = await readChainHead(tx, false);
      if (head.keyId !== null && head.keyId !== chain.keyId) {
        return bad(0, head.anchorSeq + 1, 'the chain was written with another key: was TOKEN_ENCRYPTION_KEY changed?');
      }
      const { signed, forged } = await loadCheckpoints(tx, chain, head);
      const start = startProblem(
        head,
        signed.filter((checkpoint) => checkpoint.kind === 'anchor'),
      );
      if (start !== null) {
        return start;
      }
      const stated = new Map<number, AuditCheckpoint[]>();
      for (const checkpoint of signed.filter((each) => each.seq > head.anchorSeq)) {
        stated.set(checkpoint.seq, [...(stated.get(checkpoint.seq) ?? []), checkpoint]);
      }
      const result = await walk(tx, chain, head, stated);
      if ('valid' in result) {
        return result;
      }
      const { checked, last, link } = result;
      // The walk ended early: the last entries are gone (the head, or a checkpoint, says there were more).
      const beyond = Math.max(head.seq, ...signed.map((checkpoint) => checkpoint.seq));
      if (last < beyond) {
        return bad(checked, last + 1, `entry ${last + 1} is missing: the log ends before entry ${beyond}`);
      }
      if (head.seq > head.anchorSeq && (head.hash !== link.hash || head.digest !== link.digest)) {
        return bad(checked, last, `the chain's head does not match entry ${last}`);
      }
      if (forged !== null && forged.seq <= last) {
        return bad(checked, forged.seq, `the checkpoint at entry ${forged.seq} has no valid signature`);
      }
      return { valid: true, checkedEntries: checked, firstBadSequence: null, problem: null };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
