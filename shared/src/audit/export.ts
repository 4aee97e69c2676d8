// The audit log as NDJSON, for keeping elsewhere and checking offline (scripts/verify-audit-log.mjs,
// docs/audit-log.md): a header, the signed anchor the log starts from (after retention), every
// entry with its hash and digest in sequence order, and every signed checkpoint after the anchor.
// A checkpoint of the current end is made first, so the whole export is covered by a signature.
import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../db/orm.js';
import { AuditCheckpointSchema, type AuditCheckpoint } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChain } from './audit-chain.js';
import { chainedFields } from './chain.js';
import { readChainHead } from './chain-head.js';
import { checkpointChainHead } from './checkpoints.js';

export const AUDIT_EXPORT_FORMAT = 'intake-audit-log';
export const AUDIT_EXPORT_VERSION = 1;

const BATCH = 1000;

function statementLine(checkpoint: AuditCheckpoint): string {
  return JSON.stringify({
    type: checkpoint.kind,
    seq: checkpoint.seq,
    hash: checkpoint.hash,
    digest: checkpoint.digest,
    at: checkpoint.at.toISOString(),
    signature: checkpoint.signature ?? null,
  });
}

export interface AuditLogExport {
  /** NDJSON, one object a line, each line ending in `\n`. */
  content: string;
  entries: number;
}

export async function exportAuditLog(em: Em, chain: AuditChain, now = new Date()): Promise<AuditLogExport> {
  await checkpointChainHead(em, chain, now);
  return em.fork().transactional(
    async (tx) => {
      const head = await readChainHead(tx, false);
      const lines = [
        JSON.stringify({
          type: AUDIT_EXPORT_FORMAT,
          version: AUDIT_EXPORT_VERSION,
          exportedAt: now.toISOString(),
          firstSeq: head.anchorSeq + 1,
          lastSeq: head.seq,
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
          { seq: { $gt: after, $lte: head.seq } },
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
        ...checkpoints.filter((each) => each.kind === 'checkpoint' && each.seq > head.anchorSeq).map(statementLine),
      );
      return { content: `${lines.join('\n')}\n`, entries };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
