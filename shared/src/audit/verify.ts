// Checks the audit log against its chain: walks every entry after the anchor in sequence order,
// recomputes its hash and digest, compares the signed checkpoints and the chain's head, checks that
// the checkpoints name each other, and, given one, that the log still reaches a witnessed
// checkpoint kept outside the database. Reports the first problem in that order. Reads one snapshot
// (repeatable read), so entries written meanwhile are not mistaken for damage. It never writes.
import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChain } from './audit-chain.js';
import { canonicalEntry, chainedFields, nextLink, type ChainLink } from './chain.js';
import { readChainHead, type ChainHead } from './chain-head.js';
import { verifyStatement, type CheckpointStatement } from './checkpoint-signing.js';
import { checkpointIsSigned, statementHash } from './statements.js';

export interface AuditVerification {
  valid: boolean;
  /** Entries whose hash was recomputed and matched. */
  checkedEntries: number;
  /** The sequence number of the first entry found changed, missing or out of place. */
  firstBadSequence: number | null;
  problem: string | null;
}

export interface VerifyOptions {
  /** A checkpoint kept outside the database (its compact JWS): the log must still reach it. */
  witness?: string | null;
}

/** The last entry the check recomputed, when the log is valid: what a checkpoint may state. */
export interface VerifiedEnd {
  seq: number;
  link: ChainLink;
}

const BATCH = 1000;

function bad(checkedEntries: number, seq: number | null, problem: string): AuditVerification {
  return { valid: false, checkedEntries, firstBadSequence: seq, problem };
}

/** Anchors and checkpoints whose signature holds; the first one after the anchor whose signature fails. */
async function loadStatements(tx: Em, chain: AuditChain, head: ChainHead, upTo: number | null = null) {
  const all = await tx.find(AuditCheckpointSchema, upTo === null ? {} : { seq: { $lte: upTo } }, {
    orderBy: { seq: 'asc', at: 'asc' },
  });
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

const removedStart = (upTo: number) =>
  `entries up to ${upTo} were removed, but no signed anchor says retention removed them`;

/** A problem with the start: entries removed from it without a signed anchor for them. */
async function startProblem(tx: Em, head: ChainHead, anchors: AuditCheckpoint[]): Promise<AuditVerification | null> {
  if (head.anchorSeq > 0) {
    const proven = anchors.some(
      (anchor) =>
        anchor.seq === head.anchorSeq && anchor.hash === head.anchorHash && anchor.digest === head.anchorDigest,
    );
    if (!proven) {
      const earlier = anchors.filter((anchor) => anchor.seq < head.anchorSeq).at(-1)?.seq ?? 0;
      return bad(0, earlier + 1, removedStart(head.anchorSeq));
    }
  }
  const [row] = await tx.execute<{ seq: unknown }[]>(`select min("seq") as "seq" from "audit_log" where "seq" > ?`, [
    head.anchorSeq,
  ]);
  const first = row?.seq == null ? head.seq + 1 : Number(row.seq);
  return first > head.anchorSeq + 1 ? bad(0, head.anchorSeq + 1, removedStart(first - 1)) : null;
}

interface Walked {
  checked: number;
  last: number;
  link: ChainLink;
  /** The link at the witnessed entry, when the walk passed it. */
  atWitness: ChainLink | null;
}

/**
 * Recomputes every entry after `from` (the anchor, or a signed checkpoint), up to `upTo` (all when
 * null), against the stated checkpoints; the first entry that fails, or where the walk ended.
 */
async function walkChain(
  tx: Em,
  chain: AuditChain,
  from: VerifiedEnd,
  stated: Map<number, AuditCheckpoint[]>,
  upTo: number | null,
  witnessSeq: number | null = null,
): Promise<AuditVerification | Walked> {
  let link = from.link;
  let expected = from.seq + 1;
  let checked = 0;
  let atWitness: ChainLink | null = null;
  for (;;) {
    const entries = await tx.find(
      AuditEntrySchema,
      upTo === null ? { seq: { $gte: expected } } : { seq: { $gte: expected, $lte: upTo } },
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
      const statements = stated.get(entry.seq) ?? [];
      if (statements.some((checkpoint) => checkpoint.hash !== next.hash || checkpoint.digest !== next.digest)) {
        return bad(checked, entry.seq, `entry ${entry.seq} differs from what a signed checkpoint says of it`);
      }
      checked += 1;
      link = next;
      if (entry.seq === witnessSeq) {
        atWitness = next;
      }
      expected += 1;
    }
    if (entries.length < BATCH) {
      break;
    }
  }
  return { checked, last: expected - 1, link, atWitness };
}

const anchorOf = (head: ChainHead): VerifiedEnd => ({
  seq: head.anchorSeq,
  link: { hash: head.anchorHash ?? '', digest: head.anchorDigest ?? '' },
});

/** Signed statements by the entry they state, after the anchor. */
function statedBySeq(signed: AuditCheckpoint[], head: ChainHead): Map<number, AuditCheckpoint[]> {
  const stated = new Map<number, AuditCheckpoint[]>();
  for (const checkpoint of signed.filter((each) => each.seq > head.anchorSeq)) {
    stated.set(checkpoint.seq, [...(stated.get(checkpoint.seq) ?? []), checkpoint]);
  }
  return stated;
}

/** The head against the last entry found: set back over entries that follow it, or changed. */
function headMismatch(head: ChainHead, checked: number, last: number, link: ChainLink): AuditVerification | null {
  const movedBack = Math.min(head.seq, head.chainedSeq);
  if (last > movedBack) {
    return bad(
      checked,
      movedBack + 1,
      `the chain's head was moved back to entry ${movedBack}: entries up to ${last} follow it`,
    );
  }
  if (head.seq > head.anchorSeq && (head.hash !== link.hash || head.digest !== link.digest)) {
    return bad(checked, last, `the chain's head does not match entry ${last}`);
  }
  return null;
}

/**
 * Inside `tx`: whether the entries after a signed checkpoint `from` (the newest) are intact, and
 * the entry at it still what it states; the problem found, or the log's last entry as recomputed.
 * What a new checkpoint is made from, without walking again what the signed one covers.
 */
export async function verifySince(
  tx: Em,
  chain: AuditChain,
  head: ChainHead,
  from: VerifiedEnd,
): Promise<AuditVerification | VerifiedEnd> {
  if (head.keyId !== null && head.keyId !== chain.keyId) {
    return bad(0, head.anchorSeq + 1, 'the chain was written with another key: was TOKEN_ENCRYPTION_KEY changed?');
  }
  const [at] = await tx.execute<{ hash: string | null; digest: string | null }[]>(
    `select "hash", "digest" from "audit_log" where "seq" = ?`,
    [from.seq],
  );
  if (at === undefined) {
    return bad(0, from.seq, `entry ${from.seq} is missing`);
  }
  if (at.hash !== from.link.hash || at.digest !== from.link.digest) {
    return bad(0, from.seq, `entry ${from.seq} differs from what a signed checkpoint says of it`);
  }
  const walked = await walkChain(tx, chain, from, new Map(), null);
  if ('valid' in walked) {
    return walked;
  }
  const { checked, last, link } = walked;
  if (last < head.seq) {
    return bad(checked, last + 1, `entry ${last + 1} is missing: the log ends before entry ${head.seq}`);
  }
  return headMismatch(head, checked, last, link) ?? { seq: last, link };
}

/** The checkpoints in the order they were made: each must carry the next count and name the one before. */
function checkpointChainProblem(signed: AuditCheckpoint[], checked: number): AuditVerification | null {
  const chained = signed
    .filter((each) => each.kind === 'checkpoint' && each.count != null)
    .sort((a, b) => a.count! - b.count!);
  for (let n = 1; n < chained.length; n++) {
    const [before, checkpoint] = [chained[n - 1]!, chained[n]!];
    if (checkpoint.count !== before.count! + 1) {
      return bad(
        checked,
        checkpoint.seq,
        `the checkpoint at entry ${checkpoint.seq} does not follow the one before it: a checkpoint was removed`,
      );
    }
    if (checkpoint.previous !== statementHash(before)) {
      return bad(checked, checkpoint.seq, `the checkpoint at entry ${checkpoint.seq} does not name the one before it`);
    }
  }
  return null;
}

async function witnessedStatement(chain: AuditChain, witness: string): Promise<CheckpointStatement | null> {
  if (chain.signing === null) {
    return null;
  }
  const statement = await verifyStatement(witness.trim(), await chain.signing.publicKeys());
  return statement?.kind === 'checkpoint' ? statement : null;
}

/**
 * Inside `tx`, with the head locked by it: whether the entries after the anchor up to `upTo` are
 * intact (each hash, digest and signed checkpoint, and the anchor the log starts from), as retention
 * checks what it is about to remove. The problem found, or the link of entry `upTo` as recomputed.
 */
export async function verifyPrefix(
  tx: Em,
  chain: AuditChain,
  head: ChainHead,
  upTo: number,
): Promise<AuditVerification | ChainLink> {
  if (head.keyId !== null && head.keyId !== chain.keyId) {
    return bad(0, head.anchorSeq + 1, 'the chain was written with another key: was TOKEN_ENCRYPTION_KEY changed?');
  }
  // Only the statements up to it: the head stays locked meanwhile, and writers wait.
  const { signed } = await loadStatements(tx, chain, head, upTo);
  const start = await startProblem(
    tx,
    head,
    signed.filter((checkpoint) => checkpoint.kind === 'anchor'),
  );
  if (start !== null) {
    return start;
  }
  const walked = await walkChain(tx, chain, anchorOf(head), statedBySeq(signed, head), upTo);
  if ('valid' in walked) {
    return walked;
  }
  return walked.last === upTo
    ? walked.link
    : bad(walked.checked, walked.last + 1, `entry ${walked.last + 1} is missing`);
}

/** The verification and, when the log is valid, its last entry as recomputed. */
export async function checkAuditLog(
  em: Em,
  chain: AuditChain,
  options: VerifyOptions = {},
): Promise<{ verification: AuditVerification; end: VerifiedEnd | null }> {
  const witness = options.witness == null ? null : await witnessedStatement(chain, options.witness);
  const verification = (result: AuditVerification) => ({ verification: result, end: null });
  return em.fork().transactional(
    async (tx) => {
      const head = await readChainHead(tx, false);
      if (head.keyId !== null && head.keyId !== chain.keyId) {
        return verification(
          bad(0, head.anchorSeq + 1, 'the chain was written with another key: was TOKEN_ENCRYPTION_KEY changed?'),
        );
      }
      if (options.witness != null && witness === null) {
        return verification(bad(0, null, 'the witnessed checkpoint has no valid signature'));
      }
      const { signed, forged } = await loadStatements(tx, chain, head);
      const start = await startProblem(
        tx,
        head,
        signed.filter((checkpoint) => checkpoint.kind === 'anchor'),
      );
      if (start !== null) {
        return verification(start);
      }
      const walked = await walkChain(tx, chain, anchorOf(head), statedBySeq(signed, head), null, witness?.seq ?? null);
      if ('valid' in walked) {
        return verification(walked);
      }
      const { checked, last, link } = walked;
      // The walk ended early: the last entries are gone (the head, or a checkpoint, says there were more).
      const beyond = Math.max(head.seq, ...signed.map((checkpoint) => checkpoint.seq));
      if (last < beyond) {
        return verification(
          bad(checked, last + 1, `entry ${last + 1} is missing: the log ends before entry ${beyond}`),
        );
      }
      const headProblem = headMismatch(head, checked, last, link);
      if (headProblem !== null) {
        return verification(headProblem);
      }
      if (forged !== null && forged.seq <= last) {
        return verification(bad(checked, forged.seq, `the checkpoint at entry ${forged.seq} has no valid signature`));
      }
      const chainProblem = checkpointChainProblem(signed, checked);
      if (chainProblem !== null) {
        return verification(chainProblem);
      }
      if (witness !== null && witness.seq > head.anchorSeq) {
        if (witness.seq > last) {
          return verification(
            bad(
              checked,
              last + 1,
              `the log ends at entry ${last}, before the witnessed checkpoint at entry ${witness.seq}`,
            ),
          );
        }
        const at = walked.atWitness;
        if (at === null || at.hash !== witness.hash || at.digest !== witness.digest) {
          return verification(bad(checked, witness.seq, `entry ${witness.seq} differs from the witnessed checkpoint`));
        }
      }
      return {
        verification: { valid: true, checkedEntries: checked, firstBadSequence: null, problem: null },
        end: last > head.anchorSeq ? { seq: last, link } : null,
      };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

export async function verifyAuditLog(
  em: Em,
  chain: AuditChain,
  options: VerifyOptions = {},
): Promise<AuditVerification> {
  return (await checkAuditLog(em, chain, options)).verification;
}
