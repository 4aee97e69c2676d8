// The audit log against someone with the database only (docs/audit-log.md, "What it proves"): each
// test plays one of their moves with raw SQL on a real database and checks what the server says
// afterwards: verifyAuditLog, the checkpoints it signs, the exports it makes, the next entry.
import { randomUUID } from 'node:crypto';
import { AuditCheckpointSchema, AuditEntrySchema } from '../entities/index.js';
import { createTestServices, saveAuditTables, testDriverName } from '../test/index.js';
import { AuditLogTamperedError, checkpointChainHead } from './checkpoints.js';
import { exportAuditLog } from './export.js';
import { recordAuditEntry, type AuditEntryInput } from './record.js';
import { verifyAuditLog } from './verify.js';
import { verifyExportOffline } from '../test/audit-export.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;
let restoreAuditTables: () => Promise<void>;

// One database for the file; each test starts from the migrated audit log all the same.
beforeAll(async () => {
  services = await createTestServices();
  restoreAuditTables = await saveAuditTables(services.db);
}, 60_000);

beforeEach(async () => {
  await restoreAuditTables();
});

afterAll(async () => {
  await services?.close();
});

function entry(n: number): AuditEntryInput {
  return {
    actor: { kind: 'admin', id: 'a1', name: 'ada@example.com' },
    action: 'deleteSite',
    objectType: 'Site',
    objectId: randomUUID(),
    details: { n },
    outcome: 'success',
    requestId: `req-${n}`,
  };
}

async function write(from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    await recordAuditEntry(services.db.em.fork(), services.auditChain, entry(n));
  }
}

function sql<T = unknown>(query: string, params: unknown[] = []): Promise<T> {
  return services.db.em.fork().execute(query, params) as Promise<T>;
}

const verify = (witness?: string) =>
  verifyAuditLog(services.db.em.fork(), services.auditChain, witness === undefined ? {} : { witness });

async function signature(seq: number): Promise<string> {
  const checkpoint = await services.db.em.fork().findOneOrFail(AuditCheckpointSchema, { seq, kind: 'checkpoint' });
  return checkpoint.signature!;
}

describe(`a database-only attacker on ${testDriverName()}`, () => {
  it('cannot have the server re-chain a rewritten log: not by a write, a check, a checkpoint or an export', async () => {
    await write(1, 6);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    // Entry 3 rewritten, entry 4 deleted and the rest renumbered, every checkpoint deleted, and the
    // head set back so that 3 and after look like a backlog waiting to be chained.
    await sql(`update "audit_log" set "details" = '{"n": 99}' where "seq" = 3`);
    await sql(`delete from "audit_log" where "seq" = 4`);
    await sql(`update "audit_log" set "seq" = "seq" - 1 where "seq" > 4`);
    await sql(`delete from "audit_checkpoints"`);
    const [two] = await sql<{ hash: string; digest: string }[]>(
      `select "hash", "digest" from "audit_log" where "seq" = 2`,
    );
    await sql(`update "audit_chain_head" set "seq" = 5, "chained_seq" = 2, "hash" = ?, "digest" = ?`, [
      two!.hash,
      two!.digest,
    ]);

    await write(7, 7);
    const exported = await exportAuditLog(services.db.em.fork(), services.auditChain);
    await expect(checkpointChainHead(services.db.em.fork(), services.auditChain)).rejects.toThrow(
      AuditLogTamperedError,
    );
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 2, firstBadSequence: 3 });
    // Nothing was signed over the forgery, so the export does not pass offline either.
    expect(await services.db.em.fork().count(AuditCheckpointSchema, {})).toBe(0);
    const offline = await verifyExportOffline(services, exported.content);
    expect(offline.code).toBe(1);
    // The rewritten entry keeps the hash it had: the server hashed no row it did not write.
    const [third] = await sql<{ details: unknown; hash: string }[]>(
      `select "details", "hash" from "audit_log" where "seq" = 3`,
    );
    expect(third!.details).toEqual({ n: 99 });
  });

  it('gets no checkpoint signed over entries changed after the newest one, or at it', async () => {
    await write(1, 3);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    await write(4, 5);
    const checkpoint = () => checkpointChainHead(services.db.em.fork(), services.auditChain);
    await sql(`update "audit_log" set "details" = '{"n": 99}' where "seq" = 5`);
    await expect(checkpoint()).rejects.toMatchObject({ verification: { firstBadSequence: 5 } });
    await sql(`update "audit_log" set "details" = '{"n": 5}' where "seq" = 5`);
    await sql(`update "audit_log" set "digest" = repeat('0', 64) where "seq" = 3`);
    await expect(checkpoint()).rejects.toMatchObject({
      verification: { firstBadSequence: 3, problem: 'entry 3 differs from what a signed checkpoint says of it' },
    });
    expect(await services.db.em.fork().count(AuditCheckpointSchema, {})).toBe(1);
  });

  it('finds the head moved back over entries that are still there', async () => {
    await write(1, 5);
    const [three] = await sql<{ hash: string; digest: string }[]>(
      `select "hash", "digest" from "audit_log" where "seq" = 3`,
    );
    await sql(`update "audit_chain_head" set "seq" = 3, "chained_seq" = 3, "hash" = ?, "digest" = ?`, [
      three!.hash,
      three!.digest,
    ]);
    await expect(verify()).resolves.toMatchObject({
      valid: false,
      firstBadSequence: 4,
      problem: "the chain's head was moved back to entry 3: entries up to 5 follow it",
    });
  });

  it('names removed first entries as removed without an anchor, not as a gap', async () => {
    await write(1, 6);
    await sql(`delete from "audit_log" where "seq" <= 3`);
    await expect(verify()).resolves.toEqual({
      valid: false,
      checkedEntries: 0,
      firstBadSequence: 1,
      problem: 'entries up to 3 were removed, but no signed anchor says retention removed them',
    });
  });

  it('does not find the newest entries deleted with their checkpoints, unless given a witnessed checkpoint', async () => {
    await write(1, 4);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    await write(5, 6);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    const witnessed = await signature(6);
    // Entries 5 and 6 and the checkpoint over them deleted, the head moved back to entry 4.
    const [four] = await sql<{ hash: string; digest: string }[]>(
      `select "hash", "digest" from "audit_log" where "seq" = 4`,
    );
    await sql(`delete from "audit_log" where "seq" > 4`);
    await sql(`delete from "audit_checkpoints" where "seq" > 4`);
    await sql(`update "audit_chain_head" set "seq" = 4, "chained_seq" = 4, "hash" = ?, "digest" = ?`, [
      four!.hash,
      four!.digest,
    ]);
    // What the docs say plainly: the database alone cannot show it.
    await expect(verify()).resolves.toMatchObject({ valid: true, checkedEntries: 4 });
    await expect(verify(witnessed)).resolves.toEqual({
      valid: false,
      checkedEntries: 4,
      firstBadSequence: 5,
      problem: 'the log ends at entry 4, before the witnessed checkpoint at entry 6',
    });
  });

  it('finds a log rewritten under a witnessed checkpoint, and refuses a witness not signed by the key', async () => {
    await write(1, 3);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    const witnessed = await signature(3);
    await expect(verify(witnessed)).resolves.toMatchObject({ valid: true, checkedEntries: 3 });
    await expect(verify(`${witnessed.slice(0, -4)}AAAA`)).resolves.toMatchObject({
      valid: false,
      problem: 'the witnessed checkpoint has no valid signature',
    });
  });

  it('finds a checkpoint deleted from the middle of the checkpoints, which name each other', async () => {
    for (const [from, to] of [
      [1, 2],
      [3, 4],
      [5, 6],
    ] as const) {
      await write(from, to);
      await checkpointChainHead(services.db.em.fork(), services.auditChain);
    }
    const statements = await services.db.em.fork().find(AuditCheckpointSchema, {}, { orderBy: { count: 'asc' } });
    expect(statements.map((each) => [each.count, each.seq, each.previous === '' ? '' : 'hash'])).toEqual([
      [1, 2, ''],
      [2, 4, 'hash'],
      [3, 6, 'hash'],
    ]);
    await sql(`delete from "audit_checkpoints" where "seq" = 4`);
    await expect(verify()).resolves.toMatchObject({
      valid: false,
      firstBadSequence: 6,
      problem: 'the checkpoint at entry 6 does not follow the one before it: a checkpoint was removed',
    });
  });

  it('keeps writing entries after a forged head without chaining the rows behind it', async () => {
    await write(1, 3);
    const before = await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    await sql(`update "audit_log" set "hash" = null, "digest" = null where "seq" >= 2`);
    await sql(`update "audit_chain_head" set "chained_seq" = 1`);
    await write(4, 4);
    const after = await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    expect(after[0]!.hash).toBe(before[0]!.hash);
    expect(after.map((each) => each.hash === null)).toEqual([false, true, true, false]);
    await expect(verify()).resolves.toMatchObject({ valid: false, firstBadSequence: 2 });
  });
});
