// The audit chain on a real database: entries edited, deleted or swapped with SQL are found at
// their sequence number; entries from before the chain are chained in their order; two ORMs
// writing at once leave one valid chain; a forged checkpoint and a changed key are told apart.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../db/orm.js';
import { AuditCheckpointSchema, AuditEntrySchema } from '../entities/index.js';
import { createTestServices, testCheckpointSigning, testDriverName } from '../test/index.js';
import { deriveAuditChainKey } from './chain-key.js';
import { checkpointChainHead } from './checkpoints.js';
import { recordAuditEntry, type AuditEntryInput } from './record.js';
import { verifyAuditLog } from './verify.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;

beforeEach(async () => {
  services = await createTestServices();
  services.auditChain.signing = await testCheckpointSigning();
}, 60_000);

afterEach(async () => {
  await services?.close();
});

function entry(n: number): AuditEntryInput {
  return {
    actor: { kind: 'admin', id: 'a1', name: 'ada@example.com' },
    action: 'deleteSite',
    objectType: 'Site',
    objectId: randomUUID(),
    details: { n, ids: ['x'], dryRun: false },
    outcome: 'success',
    requestId: `req-${n}`,
  };
}

async function write(count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    await recordAuditEntry(services.db.em.fork(), services.auditChain, entry(n));
  }
}

function sql(query: string, params: unknown[] = []): Promise<unknown> {
  return services.db.em.fork().execute(query, params);
}

const verify = () => verifyAuditLog(services.db.em.fork(), services.auditChain);

describe(`the audit chain on ${testDriverName()}`, () => {
  it('numbers entries 1, 2, 3 and verifies them all', async () => {
    await write(5);
    const entries = await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    expect(entries.map((each) => each.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries.every((each) => /^[0-9a-f]{64}$/.test(each.hash ?? ''))).toBe(true);
    await expect(verify()).resolves.toEqual({ valid: true, checkedEntries: 5, firstBadSequence: null, problem: null });
  });

  it("finds an entry's details changed with SQL at its sequence number", async () => {
    await write(6);
    await sql(`update "audit_log" set "details" = '{"n": 99, "ids": ["x"], "dryRun": false}' where "seq" = 4`);
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 3, firstBadSequence: 4 });
  });

  it('finds any changed column, the time too', async () => {
    await write(3);
    await sql(`update "audit_log" set "at" = "at" - interval '1 second' where "seq" = 2`);
    await expect(verify()).resolves.toMatchObject({ valid: false, firstBadSequence: 2 });
  });

  it('finds a deleted entry at its sequence number', async () => {
    await write(6);
    await sql(`delete from "audit_log" where "seq" = 3`);
    await expect(verify()).resolves.toMatchObject({
      valid: false,
      checkedEntries: 2,
      firstBadSequence: 3,
      problem: 'entry 3 is missing',
    });
  });

  it('finds two swapped entries at the first of them', async () => {
    await write(6);
    // Their numbers swapped: each row now claims the other's place.
    await sql(`update "audit_log" set "seq" = -1 where "seq" = 3`);
    await sql(`update "audit_log" set "seq" = 3 where "seq" = 4`);
    await sql(`update "audit_log" set "seq" = 4 where "seq" = -1`);
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 2, firstBadSequence: 3 });
  });

  it('finds two entries whose contents were swapped, hashes and all', async () => {
    await write(6);
    const columns = ['at', 'details', 'request_id', 'object_id', 'hash', 'digest'];
    const set = columns.map((column) => `"${column}" = "other"."${column}"`).join(', ');
    await sql(`update "audit_log" set "seq" = -"seq" where "seq" in (2, 5)`);
    await sql(
      `update "audit_log" set ${set}, "seq" = -"audit_log"."seq" from "audit_log" as "other" where "audit_log"."seq" in (-2, -5) and "other"."seq" = -7 - "audit_log"."seq"`,
    );
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 1, firstBadSequence: 2 });
  });

  it('finds the last entries deleted when a checkpoint covered them', async () => {
    await write(4);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    // Deleted, and the head moved back to entry 2 as if 3 and 4 never were.
    const [two] = (await sql(`select "hash", "digest" from "audit_log" where "seq" = 2`)) as { hash: string; digest: string }[];
    await sql(`delete from "audit_log" where "seq" > 2`);
    await sql(`update "audit_chain_head" set "seq" = 2, "chained_seq" = 2, "hash" = ?, "digest" = ?`, [two!.hash, two!.digest]);
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 2, firstBadSequence: 3 });
  });

  it('finds a checkpoint that was not signed with the published key', async () => {
    await write(3);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    const other = await testCheckpointSigning('other-key');
    const head = await services.db.em.fork().findOneOrFail(AuditCheckpointSchema, { seq: 3 });
    const forged = await other.sign({ kind: 'checkpoint', seq: 2, hash: head.hash, digest: head.digest, at: new Date().toISOString() });
    await sql(`update "audit_checkpoints" set "signature" = ?`, [forged]);
    await expect(verify()).resolves.toMatchObject({ valid: false, firstBadSequence: 3 });
  });

  it('tells a changed key from tampering', async () => {
    await write(2);
    const verification = await verifyAuditLog(services.db.em.fork(), {
      ...deriveAuditChainKey(Buffer.alloc(32, 1)),
      signing: services.auditChain.signing,
    });
    expect(verification).toMatchObject({ valid: false, problem: expect.stringContaining('another key') });
  });

  it('chains entries from before the chain in the order they were written, at the next write', async () => {
    // As the migration leaves them: numbered, not hashed, the head not chained.
    for (const [seq, at] of [
      [1, '2026-01-01T00:00:00.000Z'],
      [2, '2026-01-02T00:00:00.000Z'],
    ] as const) {
      await sql(
        `insert into "audit_log" ("id", "seq", "at", "actor_kind", "actor_name", "action", "outcome") values (?, ?, ?, 'system', 'old', 'retention.run', 'success')`,
        [randomUUID(), seq, at],
      );
    }
    await sql(`update "audit_chain_head" set "seq" = 2, "chained_seq" = 0`);
    await write(1);
    const entries = await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    expect(entries.map((each) => [each.seq, each.actorName, each.hash !== null])).toEqual([
      [1, 'old', true],
      [2, 'old', true],
      [3, 'ada@example.com', true],
    ]);
    await expect(verify()).resolves.toMatchObject({ valid: true, checkedEntries: 3 });
  });

  it('stays one valid chain when two ORMs write at once', async () => {
    // Two database handles as two admin processes would have: on PostgreSQL two pools, on PGlite
    // (one process only) concurrent forks of the one handle.
    const second = services.testDb.databaseUrl
      ? await openDatabase({ databaseUrl: services.testDb.databaseUrl, poolSize: 5 })
      : services.db;
    try {
      const writers = [services.db, second].flatMap((db, which) =>
        Array.from({ length: 20 }, (_, n) => recordAuditEntry(db.em.fork(), services.auditChain, entry(which * 100 + n))),
      );
      await Promise.all(writers);
    } finally {
      if (second !== services.db) {
        await second.close();
      }
    }
    const seqs = (await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } })).map((each) => each.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
    await expect(verify()).resolves.toMatchObject({ valid: true, checkedEntries: 40 });
  });
});
