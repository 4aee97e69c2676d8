// Entries written before the audit chain existed, on a real database upgraded from before it: they
// are chained in the transaction that applies the chain's migration, in the order they were written,
// with an entry recording how many there were; no later start chains anything, even when someone
// with the database makes the log look as it did before the chain.
import { randomUUID } from 'node:crypto';
import { MIGRATIONS } from '@intake/migrations';
import { AuditEntrySchema } from '../entities/index.js';
import { createTestDatabase, testDriverName, type TestDatabase } from '../test/database.js';
import { deriveAuditChainKey } from './chain-key.js';
import { AUDIT_CHAIN_MIGRATION, CHAIN_START_ACTION, migrateAuditedDatabase } from './prechain.js';
import { verifyAuditLog } from './verify.js';

const CHAIN = { ...deriveAuditChainKey(Buffer.alloc(32, 3)), signing: null };

let testDb: TestDatabase;

beforeEach(async () => {
  testDb = await createTestDatabase({ migrate: false });
}, 120_000);

afterEach(async () => {
  await testDb?.close();
});

const sql = (query: string, params: unknown[] = []) => testDb.db.em.fork().execute(query, params);

describe(`entries from before the audit chain on ${testDriverName()}`, () => {
  it('are chained once, with the migration that numbers them, and never again', async () => {
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((migration) => migration.name === AUDIT_CHAIN_MIGRATION),
    ).map((migration) => migration.name);
    await testDb.db.migrator.up({ migrations: before });
    for (const at of ['2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z']) {
      await sql(
        `insert into "audit_log" ("id", "at", "actor_kind", "actor_name", "action", "outcome") values (?, ?, 'system', 'old', 'retention.run', 'success')`,
        [randomUUID(), at],
      );
    }

    const applied = await migrateAuditedDatabase(testDb.db, CHAIN);
    expect(applied).toContain(AUDIT_CHAIN_MIGRATION);
    const entries = await testDb.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    expect(entries.map((entry) => [entry.seq, entry.at.toISOString().slice(0, 10), entry.hash !== null])).toEqual([
      [1, '2026-01-01', true],
      [2, '2026-01-02', true],
      [3, new Date().toISOString().slice(0, 10), true],
    ]);
    expect(entries[2]).toMatchObject({ action: CHAIN_START_ACTION, details: { prechainEntries: 2 } });
    await expect(verifyAuditLog(testDb.db.em.fork(), CHAIN)).resolves.toMatchObject({ valid: true, checkedEntries: 3 });

    // Made to look unchained again (hashes gone, head set back): a restart chains nothing.
    await sql(`update "audit_log" set "details" = '{"n": 1}', "hash" = null, "digest" = null where "seq" = 1`);
    await sql(`update "audit_chain_head" set "chained_seq" = 0, "key_id" = null`);
    expect(await migrateAuditedDatabase(testDb.db, CHAIN)).toEqual([]);
    const [first] = (await sql(`select "hash" from "audit_log" where "seq" = 1`)) as { hash: string | null }[];
    expect(first!.hash).toBeNull();
    await expect(verifyAuditLog(testDb.db.em.fork(), CHAIN)).resolves.toMatchObject({
      valid: false,
      firstBadSequence: 1,
    });
  });
});
