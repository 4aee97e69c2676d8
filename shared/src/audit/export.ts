// The audit log as NDJSON, for keeping elsewhere and checking offline (scripts/verify-audit-log.mjs,
// docs/audit-log.md): a header, the signed anchor the log starts from (after retention), every
// entry with its hash and digest in sequence order, and every signed checkpoint after the anchor.
// The log is checked and a checkpoint of its end made first, so the whole export is covered by a
// signature; a log that fails its check is exported without one (and fails offline too).
import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChain } from './audit-chain.js';
import { chainedFields } from './chain.js';
import { readChainHead } from './chain-head.js';
import { AuditLogTamperedError, checkpointChainHead } from './checkpoints.js';
import { statementOf } from './statements.js';

export const AUDIT_EXPORT_FORMAT = 'intake-audit-log';
export const AUDIT_EXPORT_VERSION = 1;

const BATCH = 1000;

function statementLine(checkpoint: AuditCheckpoint): string {
  const { kind, ...statement } = statementOf(checkpoint);
  return JSON.stringify({ type: kind, ...statement, signature: checkpoint.signature ?? null });
}

export interface AuditLogExport {
  /** NDJSON, one object a line, each line ending in `\n`. */
  content: string;
  entries: number;
}

/** A checkpoint of the log's end, made after checking it; null when the check failed (nothing is signed then). */
async function coveringCheckpoint(em: Em, chain: AuditChain, now: Date): Promise<AuditCheckpoint | null> {
  try {
    return await checkpointChainHead(em, chain, now);
  } catch (error) {
    if (error instanceof AuditLogTamperedError) {
      return null;
    }
    throw error;
  }
}

export async function exportAuditLog(em: Em, chain: AuditChain, now = new Date()): Promise<AuditLogExport> {
  const covering = await coveringCheckpoint(em, chain, now);
  return em.fork().transactional(
    async (tx) => {
      const head = await readChainHead(tx, false);
      // Up to the checkpoint just made, so every entry exported is covered by a signature; a log that
      // failed its check is exported whole and unsigned, as evidence.
      const upTo = covering?.seq ?? null;
      const lines = [
        JSON.stringify({
          type: AUDIT_EXPORT_FORMAT,
          version: AUDIT_EXPORT_VERSION,
          exportedAt: now.toISOString(),
          firstSeq: head.anchorSeq + 1,
          lastSeq: upTo ?? head.seq,
        }),
      ];
      const checkpoints = await tx.find(
        AuditCheckpointSchema,
        { seq: { $gte: head.anchorSeq } },
        { orderBy: { seq: 'asc', at: 'asc' } },
      );
      lines.push(
        ...checkpoints.filter((each) => each.kind === 'anchor' && each.seq === head.anchorSeq).map(statementLine),
      );
      let after = head.anchorSeq;
      let entries = 0;
      for (;;) {
        const batch = await tx.find(
          AuditEntrySchema,
          upTo === null ? { seq: { $gt: after } } : { seq: { $gt: after, $lte: upTo } },
          { orderBy: { seq: 'asc' }, limit: BATCH, disableIdentityMap: true },
        );
        for (const entry of batch) {
          lines.push(
            JSON.stringify({ type: 'entry', ...chainedFields(entry), hash: entry.hash, digest: entry.digest }),
          );
          after = entry.seq;
        }
        entries += batch.length;
        if (batch.length < BATCH) {
          break;
        }
      }
      lines.push(
        ...checkpoints
          .filter((each) => each.kind === 'checkpoint' && each.seq > head.anchorSeq && each.seq <= (upTo ?? Infinity))
          .map(statementLine),
      );
      return { content: `${lines.join('\n')}\n`, entries };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
