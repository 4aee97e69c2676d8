// The audit chain on a real database: entries edited, deleted or swapped with SQL are found at
// their sequence number; two ORMs writing at once leave one valid chain; a forged checkpoint and a
// changed key are told apart; an export verifies offline with the documented script and the
// public key alone.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/orm.js';
import { AuditCheckpointSchema, AuditEntrySchema } from '../entities/index.js';
import {
  createTestServices,
  saveAuditTables,
  REPO_ROOT,
  testCheckpointSigning,
  testDriverName,
} from '../test/index.js';
import { deriveAuditChainKey } from './chain-key.js';
import { canonicalEntry, type ChainedFields } from './chain.js';
import { checkpointChainHead } from './checkpoints.js';
import { exportAuditLog } from './export.js';
import { recordAuditEntry, type AuditEntryInput } from './record.js';
import { verifyAuditLog } from './verify.js';

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

async function publishedKid(): Promise<string> {
  const { keys } = await services.auditChain.signing!.publicKeys();
  return keys[0]!.kid!;
}

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
    const [two] = (await sql(`select "hash", "digest" from "audit_log" where "seq" = 2`)) as {
      hash: string;
      digest: string;
    }[];
    await sql(`delete from "audit_log" where "seq" > 2`);
    await sql(`update "audit_chain_head" set "seq" = 2, "chained_seq" = 2, "hash" = ?, "digest" = ?`, [
      two!.hash,
      two!.digest,
    ]);
    await expect(verify()).resolves.toMatchObject({ valid: false, checkedEntries: 2, firstBadSequence: 3 });
  });

  it('finds a checkpoint that was not signed with the published key', async () => {
    await write(3);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    // Another key under the published key's id.
    const other = await testCheckpointSigning(await publishedKid());
    const head = await services.db.em.fork().findOneOrFail(AuditCheckpointSchema, { seq: 3 });
    const forged = await other.sign({
      kind: 'checkpoint',
      seq: 2,
      hash: head.hash,
      digest: head.digest,
      at: new Date().toISOString(),
    });
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

  it('stays one valid chain when two ORMs write at once', async () => {
    // Two database handles as two admin processes would have: on PostgreSQL two pools, on PGlite
    // (one process only) concurrent forks of the one handle.
    const second = services.testDb.databaseUrl
      ? await openDatabase({ databaseUrl: services.testDb.databaseUrl, poolSize: 5 })
      : services.db;
    try {
      const writers = [services.db, second].flatMap((db, which) =>
        Array.from({ length: 20 }, (_, n) =>
          recordAuditEntry(db.em.fork(), services.auditChain, entry(which * 100 + n)),
        ),
      );
      await Promise.all(writers);
    } finally {
      if (second !== services.db) {
        await second.close();
      }
    }
    const seqs = (await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } })).map(
      (each) => each.seq,
    );
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
    await expect(verify()).resolves.toMatchObject({ valid: true, checkedEntries: 40 });
  });
});

describe(`an export of the audit log on ${testDriverName()}`, () => {
  const script = path.join(REPO_ROOT, 'scripts/verify-audit-log.mjs');

  /** Runs the documented offline verifier as an auditor would: the export file and a JWK Set file. */
  async function verifyOffline(content: string): Promise<{ code: number | null; result: Record<string, unknown> }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'intake-audit-export-'));
    await writeFile(path.join(dir, 'audit-log.ndjson'), content);
    await writeFile(path.join(dir, 'jwks.json'), JSON.stringify(await services.auditChain.signing!.publicKeys()));
    const child = spawn(process.execPath, [script, 'audit-log.ndjson', 'jwks.json'], { cwd: dir });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, result: JSON.parse(out) as Record<string, unknown> };
  }

  function edit(content: string, change: (line: Record<string, unknown>) => Record<string, unknown> | null): string {
    return content
      .trim()
      .split('\n')
      .map((line) => change(JSON.parse(line) as Record<string, unknown>))
      .filter((line) => line !== null)
      .map((line) => JSON.stringify(line))
      .join('\n');
  }

  it('verifies offline with the published key, and shows an edit, a removal and a forged checkpoint', async () => {
    await write(5);
    const exported = await exportAuditLog(services.db.em.fork(), services.auditChain);
    expect(exported.entries).toBe(5);
    await expect(verifyOffline(exported.content)).resolves.toEqual({
      code: 0,
      result: { valid: true, checkedEntries: 5, firstBadSequence: null, problem: null, signedThrough: 5 },
    });

    const changed = edit(exported.content, (line) =>
      line.seq === 2 && line.type === 'entry' ? { ...line, actorName: 'eve' } : line,
    );
    await expect(verifyOffline(changed)).resolves.toMatchObject({
      code: 1,
      result: { valid: false, firstBadSequence: 2 },
    });

    const removed = edit(exported.content, (line) => (line.seq === 4 && line.type === 'entry' ? null : line));
    await expect(verifyOffline(removed)).resolves.toMatchObject({
      code: 1,
      result: { valid: false, firstBadSequence: 4 },
    });

    // Rewritten whole, digests recomputed from entry 2 on: only the checkpoint's signature shows it,
    // whether its old signature is kept or the statement is signed again with another key.
    let digest = '';
    const rewritten = edit(exported.content, (line) => {
      if (line.type !== 'entry') {
        return line;
      }
      const { type, hash, digest: _old, ...fields } = line.seq === 2 ? { ...line, actorName: 'eve' } : line;
      digest = createHash('sha256')
        .update(digest)
        .update(canonicalEntry(fields as unknown as ChainedFields))
        .digest('hex');
      return { type, ...fields, hash, digest };
    });
    const restated = edit(rewritten, (line) => (line.type === 'checkpoint' ? { ...line, digest } : line));
    await expect(verifyOffline(restated)).resolves.toMatchObject({
      code: 1,
      result: { valid: false, firstBadSequence: 5 },
    });
    const checkpoint = restated
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq: number; hash: string; digest: string; at: string })
      .find((line) => line.type === 'checkpoint')!;
    const other = await testCheckpointSigning(await publishedKid());
    const resigned = await other.sign({
      kind: 'checkpoint',
      seq: checkpoint.seq,
      hash: checkpoint.hash,
      digest,
      at: checkpoint.at,
    });
    const forged = edit(restated, (line) => (line.type === 'checkpoint' ? { ...line, signature: resigned } : line));
    await expect(verifyOffline(forged)).resolves.toMatchObject({
      code: 1,
      result: { valid: false, firstBadSequence: 5 },
    });
  });
});
