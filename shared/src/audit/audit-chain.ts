// What writing and checking the audit chain needs: the HMAC key and, when a signing key is
// available, how checkpoints are signed and checked, and where a new one is witnessed. Built once
// per process (createServices).
import type { AuditCheckpoint } from '../entities/audit-chain.js';
import type { AuditChainKey } from './chain-key.js';
import type { CheckpointSigning } from './checkpoint-signing.js';

export interface AuditChain extends AuditChainKey {
  /** Null: checkpoints and anchors are stored unsigned (and an offline check cannot trust them). */
  signing: CheckpointSigning | null;
  /** Told of each new signed checkpoint, to keep it outside the database (witness.ts). */
  witness?: (checkpoint: AuditCheckpoint) => Promise<void>;
}
