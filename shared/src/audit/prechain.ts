// Entries written before the audit chain existed are chained once: in the transaction that applies
// the migration numbering them (Migration20261126184000_audit_chain), which is the only time the
// server hashes entries it did not write itself. After that no start, write or check chains a row:
// a head set back by hand is reported as tampering (verify.ts), never chained afresh. The bound is
// recorded in the chain itself, by an entry `auditLog.chainStart` that only the key can write.
import type { Database, Em } from '../db/orm.js';
import { AUDIT_CHAIN_HEAD_ID, AuditChainHeadSchema } from '../entities/audit-chain.js';
import { AuditEntrySchema } from '../entities/audit-entry.js';
import type { AuditChainKey } from './chain-key.js';
import { canonicalEntry, chainedFields, CHAIN_START, nextLink } from './chain.js';
import { readChainHead } from './chain-head.js';
import { recordAuditEntry, systemActor } from './record.js';

/** The migration that numbers the entries from before the chain. */
export const AUDIT_CHAIN_MIGRATION = 'Migration20261126184000_audit_chain';

/** The action of the entry that records how many entries were written before the chain. */
export const CHAIN_START_ACTION = 'auditLog.chainStart';

const BATCH = 500;

/** Chains entries 1 … head.seq as the migration left them (numbered, no hash), and records the bound. */
async function chainPrechainEntries(tx: Em, chain: AuditChainKey): Promise<void> {
  const head = await readChainHead(tx, true);
  if (head.seq === 0) {
    return;
  }
  let link = CHAIN_START;
  for (let after = 0; after < head.seq; after += BATCH) {
    const entries = await tx.find(
      AuditEntrySchema,
      { seq: { $gt: after, $lte: head.seq } },
      { orderBy: { seq: 'asc' }, limit: BATCH, disableIdentityMap: true },
    );
    for (const entry of entries) {
      link = nextLink(chain.key, link, canonicalEntry(chainedFields(entry)));
      await tx.nativeUpdate(AuditEntrySchema, { id: entry.id }, link);
    }
  }
  await tx.nativeUpdate(
    AuditChainHeadSchema,
    { id: AUDIT_CHAIN_HEAD_ID },
    { chainedSeq: head.seq, ...link, keyId: chain.keyId },
  );
  await recordAuditEntry(tx, chain, {
    actor: systemActor('audit chain'),
    action: CHAIN_START_ACTION,
    outcome: 'success',
    details: { prechainEntries: head.seq },
  });
}

/**
 * Applies the pending migrations and, when the chain's own migration is among them, chains the
 * entries it numbered, all in one transaction. Resolves with the names of the migrations applied.
 */
export async function migrateAuditedDatabase(db: Database, chain: AuditChainKey): Promise<string[]> {
  // Outside the transaction: on a new database this creates the migrations' own table, through a
  // connection of its own, which PGlite's one connection would otherwise wait for forever.
  if ((await db.migrator.getPending()).length === 0) {
    return [];
  }
  return db.em.fork().transactional(async (tx) => {
    const applied = await db.migrator.up({ transaction: tx.getTransactionContext() });
    const names = applied.map((migration) => migration.name);
    if (names.includes(AUDIT_CHAIN_MIGRATION)) {
      await chainPrechainEntries(tx, chain);
    }
    return names;
  });
}
