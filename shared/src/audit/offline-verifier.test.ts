// The offline verifier (scripts/verify-audit-log.mjs) run as an auditor runs it, on real exports:
// it passes only when a signed checkpoint covers the last entry and the header's lastSeq, finds a
// checkpoint removed from among the others, a log that no longer reaches a witnessed checkpoint,
// and names the same entry as the database check.
import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { AuditCheckpointSchema } from '../entities/index.js';
import { createTestServices, saveAuditTables, testDriverName, verifyExportOffline } from '../test/index.js';
import { checkpointChainHead } from './checkpoints.js';
import { exportAuditLog } from './export.js';
import { recordAuditEntry } from './record.js';
import { verifyAuditLog } from './verify.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;
type Line = Record<string, unknown> & { type: string; seq?: number };

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

async function write(from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    await recordAuditEntry(services.db.em.fork(), services.auditChain, {
      actor: { kind: 'admin', id: 'a1', name: 'ada@example.com' },
      action: 'deleteSite',
      objectId: randomUUID(),
      details: { n },
      outcome: 'success',
    });
  }
}

const exported = async () => (await exportAuditLog(services.db.em.fork(), services.auditChain)).content;
const offline = (content: string, witness?: string) =>
  verifyExportOffline(services, content, witness === undefined ? {} : { witness });

function lines(content: string): Line[] {
  return content
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

const text = (each: Line[]) => `${each.map((line) => JSON.stringify(line)).join('\n')}\n`;

/** Entries from `from` on rewritten (actorName), their digests recomputed as anyone can. */
function rewritten(content: string, from: number): Line[] {
  let digest = '';
  return lines(content).map((line) => {
    if (line.type !== 'entry') {
      return line;
    }
    const { type, hash, digest: _old, ...fields } = line.seq! >= from ? { ...line, actorName: 'eve' } : line;
    digest = createHash('sha256').update(digest).update(canonicalize(fields)!).digest('hex');
    return { type, ...fields, hash, digest };
  });
}

describe(`the offline verifier on ${testDriverName()}`, () => {
  it('passes a whole export, and nothing that no signed checkpoint covers', async () => {
    await write(1, 4);
    const content = await exported();
    await expect(offline(content)).resolves.toEqual({
      code: 0,
      result: { valid: true, checkedEntries: 4, firstBadSequence: null, problem: null, signedThrough: 4 },
    });

    // Rewritten, digests recomputed, the checkpoint lines removed.
    const unsigned = rewritten(content, 2).filter((line) => line.type !== 'checkpoint');
    await expect(offline(text(unsigned))).resolves.toMatchObject({
      code: 1,
      result: {
        valid: false,
        problem: "no signed checkpoint covers the export's last entry 4: entries after 0 prove nothing",
      },
    });
    // A header alone, claiming entries or none.
    const header = lines(content)[0]!;
    for (const claimed of [
      { ...header, lastSeq: 4 },
      { ...header, lastSeq: 0 },
    ]) {
      await expect(offline(text([claimed]))).resolves.toMatchObject({ code: 1, result: { valid: false } });
    }
    // The last entries and their checkpoint cut off, the header left as it was.
    const cut = lines(content).filter((line) => line.type !== 'checkpoint' && (line.seq ?? 0) <= 2);
    await expect(offline(text(cut))).resolves.toMatchObject({
      code: 1,
      result: { valid: false, firstBadSequence: 3, problem: 'entry 3 is missing: the log ends before entry 4' },
    });
    // Entries 1–3 removed from the start.
    const started = lines(content).filter((line) => line.type !== 'entry' || line.seq! > 3);
    await expect(offline(text(started))).resolves.toMatchObject({
      code: 1,
      result: {
        firstBadSequence: 1,
        problem: 'entries up to 3 were removed, but no signed anchor says retention removed them',
      },
    });
  });

  it('finds a checkpoint removed from among the others', async () => {
    for (const [from, to] of [
      [1, 2],
      [3, 4],
    ] as const) {
      await write(from, to);
      await checkpointChainHead(services.db.em.fork(), services.auditChain);
    }
    await write(5, 5);
    const content = await exported();
    expect(
      lines(content)
        .filter((line) => line.type === 'checkpoint')
        .map((line) => line.count),
    ).toEqual([1, 2, 3]);
    await expect(offline(content)).resolves.toMatchObject({ code: 0 });
    const removed = lines(content).filter((line) => !(line.type === 'checkpoint' && line.seq === 4));
    await expect(offline(text(removed))).resolves.toMatchObject({
      code: 1,
      result: {
        firstBadSequence: 5,
        problem: 'the checkpoint at entry 5 does not follow the one before it: a checkpoint was removed',
      },
    });
  });

  it('fails an export that no longer reaches a witnessed checkpoint, which the export alone cannot show', async () => {
    await write(1, 4);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    await write(5, 6);
    const witnessed = (await checkpointChainHead(services.db.em.fork(), services.auditChain))!.signature!;
    await expect(offline(await exported(), witnessed)).resolves.toMatchObject({ code: 0 });

    // Entries 5 and 6 and the checkpoint over them deleted in the database, the head moved back.
    const sql = (query: string, params: unknown[] = []) => services.db.em.fork().execute(query, params);
    const [four] = (await sql(`select "hash", "digest" from "audit_log" where "seq" = 4`)) as {
      hash: string;
      digest: string;
    }[];
    await sql(`delete from "audit_log" where "seq" > 4`);
    await sql(`delete from "audit_checkpoints" where "seq" > 4`);
    await sql(`update "audit_chain_head" set "seq" = 4, "chained_seq" = 4, "hash" = ?, "digest" = ?`, [
      four!.hash,
      four!.digest,
    ]);
    const truncated = await exported();
    await expect(offline(truncated)).resolves.toMatchObject({ code: 0, result: { valid: true, signedThrough: 4 } });
    await expect(offline(truncated, witnessed)).resolves.toEqual({
      code: 1,
      result: {
        valid: false,
        checkedEntries: 4,
        firstBadSequence: 5,
        problem: 'the log ends at entry 4, before the witnessed checkpoint at entry 6',
        signedThrough: null,
      },
    });
    // The witness as the endpoint answers it (a JSON line) works the same; a forged one fails.
    await expect(offline(truncated, JSON.stringify({ checkpoint: witnessed }))).resolves.toMatchObject({ code: 1 });
    await expect(offline(await exported(), `${witnessed.slice(0, -4)}AAAA`)).resolves.toMatchObject({
      code: 1,
      result: { problem: 'the witnessed checkpoint has no valid signature' },
    });
  });

  it('names the entry the database check names when an entry at a checkpoint is rewritten', async () => {
    await write(1, 3);
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    await write(4, 5);
    const content = await exported();
    // In the export: entry 3 (the first checkpoint's) rewritten, with and without its digest recomputed.
    const kept = lines(content).map((line) =>
      line.type === 'entry' && line.seq === 3 ? { ...line, actorName: 'eve' } : line,
    );
    await expect(offline(text(kept))).resolves.toMatchObject({ code: 1, result: { firstBadSequence: 3 } });
    await expect(offline(text(rewritten(content, 3)))).resolves.toMatchObject({
      code: 1,
      result: { firstBadSequence: 3, problem: 'entry 3 differs from what a signed checkpoint says of it' },
    });
    // In the database: the same entry.
    await services.db.em.fork().execute(`update "audit_log" set "actor_name" = 'eve' where "seq" = 3`);
    await expect(verifyAuditLog(services.db.em.fork(), services.auditChain)).resolves.toMatchObject({
      firstBadSequence: 3,
    });
    expect(await services.db.em.fork().count(AuditCheckpointSchema, { kind: 'checkpoint' })).toBe(2);
  });
});
