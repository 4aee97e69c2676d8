// A witness of the audit chain outside the database: each new signed checkpoint is logged
// (`audit checkpoint`, its JWS in `auditCheckpoint`) and, with AUDIT_WITNESS_FILE, appended to that
// file, one JWS a line. Someone who deletes the newest entries with their checkpoints cannot take
// back a copy kept there; verifyAuditLog and the offline script compare it (docs/audit-log.md).
import { appendFile } from 'node:fs/promises';
import type { AuditCheckpoint } from '../entities/audit-chain.js';
import type { Logger } from '../logger/index.js';

export const CHECKPOINT_LOG_MESSAGE = 'audit checkpoint';

export function checkpointWitness(
  logger: Logger,
  file: string | undefined,
): (checkpoint: AuditCheckpoint) => Promise<void> {
  return async (checkpoint) => {
    if (checkpoint.signature == null) {
      return;
    }
    logger.info(
      { auditCheckpoint: checkpoint.signature, seq: checkpoint.seq, count: checkpoint.count },
      CHECKPOINT_LOG_MESSAGE,
    );
    if (file === undefined) {
      return;
    }
    try {
      await appendFile(file, `${checkpoint.signature}\n`, { mode: 0o600 });
    } catch (error) {
      // The checkpoint stands in the database and in the log line; the file is told apart by path only.
      logger.error({ err: error, file }, 'audit checkpoint not appended to AUDIT_WITNESS_FILE');
    }
  };
}
