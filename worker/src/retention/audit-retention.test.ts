// Audit log retention: entries older than AUDIT_RETENTION_DAYS are deleted from the log's start in
// batches, by any number of concurrent runs and by the retention schedule on its own; younger
// entries stay, a run that deleted something records itself, and the rest of the chain still
// verifies from the signed anchor retention leaves. Entries whose chain fails are never removed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRetentionSchedule } from './retention-schedule.js';
import { recordAuditEntry, verifyAuditLog } from '@intake/shared/audit';
import { AuditCheckpointSchema, AuditEntrySchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { createTestServices, saveAuditTables } from '@intake/shared/test';
import { AUDIT_LOG_TAMPERED, DAY_MS, deleteExpiredAuditEntries } from './audit-retention.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;
let logged: string;
let witnessFile: string;

let restoreAuditTables: () => Promise<void>;

// One database for the file, its audit log put back before each test: the log is pruned from its
// start, so one test's young entry would keep the next test's older ones.
beforeAll(async () => {
  witnessFile = path.join(await mkdtemp(path.join(tmpdir(), 'intake-witness-')), 'checkpoints.jws');
  services = await createTestServices(
    { AUDIT_RETENTION_DAYS: '30', AUDIT_WITNESS_FILE: witnessFile, LOG_LEVEL: 'info' },
    { logDestination: { write: (line: string) => void (logged += line) } },
  );
  restoreAuditTables = await saveAuditTables(services.db);
}, 60_000);

beforeEach(async () => {
  await restoreAuditTables();
  await rm(witnessFile, { force: true });
  logged = '';
});

function logLines(msg: string): Record<string, unknown>[] {
  return logged
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

afterAll(async () => {
  await services?.close();
});

/** An entry `ageDays` old; resolves with its id. */
async function entry(ageDays: number): Promise<string> {
  const requestId = `age-${ageDays}-${Math.random()}`;
  await recordAuditEntry(services.db.em.fork(), services.auditChain, {
    actor: { kind: 'admin', id: 'a', name: 'ada@example.com' },
    action: 'deleteSite',
    outcome: 'success',
    requestId,
    at: new Date(Date.now() - ageDays * DAY_MS),
  });
  return (await services.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId })).id;
}

async function exists(id: string): Promise<boolean> {
  return (await services.db.em.fork().count(AuditEntrySchema, { id })) === 1;
}

async function pruneRecords(): Promise<number> {
  return services.db.em.fork().count(AuditEntrySchema, { action: 'auditLog.prune' });
}

describe(`audit log retention on ${testDriverName()}`, () => {
  it('deletes entries older than AUDIT_RETENTION_DAYS, in batches, keeps younger ones and records the run', async () => {
    const old = await Promise.all([31, 40, 50, 60, 400].map(entry));
    const young = await entry(29);

    expect(await deleteExpiredAuditEntries(services, { batchSize: 2 })).toBe(5);
    for (const id of old) {
      expect(await exists(id)).toBe(false);
    }
    expect(await exists(young)).toBe(true);
    const [run] = await services.db.em.fork().find(AuditEntrySchema, { action: 'auditLog.prune' });
    expect(run).toMatchObject({ actorKind: 'system', outcome: 'success', details: { count: 5, retentionDays: 30 } });

    // Nothing left to delete: no further record.
    expect(await deleteExpiredAuditEntries(services)).toBe(0);
    expect(await pruneRecords()).toBe(1);
  });

  it('removes the start of the log only, and leaves a signed anchor from which the rest verifies', async () => {
    for (const age of [50, 40, 20, 35, 10]) {
      await entry(age);
    }
    // Up to the first entry within the retention (20 days): the 35-day-old one after it stays.
    expect(await deleteExpiredAuditEntries(services)).toBe(2);
    const left = await services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { seq: 'asc' } });
    expect(left.map((each) => each.seq)).toEqual([3, 4, 5, 6]);
    const anchor = await services.db.em.fork().findOneOrFail(AuditCheckpointSchema, { kind: 'anchor' });
    expect(anchor).toMatchObject({ seq: 2, signature: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    await expect(verifyAuditLog(services.db.em.fork(), services.auditChain)).resolves.toMatchObject({
      valid: true,
      checkedEntries: 4,
    });

    // Entries removed from the start by hand, with the anchor moved too, have no signed anchor.
    await services.db.em.fork().execute(`delete from "audit_log" where "seq" = 3`);
    await services.db.em
      .fork()
      .execute(`update "audit_chain_head" set "anchor_seq" = 3, "anchor_hash" = ?, "anchor_digest" = ?`, [
        left[0]!.hash,
        left[0]!.digest,
      ]);
    await expect(verifyAuditLog(services.db.em.fork(), services.auditChain)).resolves.toMatchObject({
      valid: false,
      firstBadSequence: 3,
    });
  });

  it('checks every entry it would remove: entries back-dated with SQL stay, and the run says the log was altered', async () => {
    for (let n = 0; n < 100; n++) {
      await entry(1);
    }
    await entry(0);
    // Someone with the database moves entries 1–100 two years back, for retention to remove them.
    await services.db.em.fork().execute(`update "audit_log" set "at" = "at" - interval '730 days' where "seq" <= 100`);

    expect(await deleteExpiredAuditEntries(services)).toBe(0);
    expect(await services.db.em.fork().count(AuditEntrySchema, { seq: { $lte: 100 } })).toBe(100);
    expect(await services.db.em.fork().count(AuditCheckpointSchema, { kind: 'anchor' })).toBe(0);
    const [failed] = await services.db.em.fork().find(AuditEntrySchema, { action: 'auditLog.prune' });
    expect(failed).toMatchObject({
      actorKind: 'system',
      outcome: 'failure',
      errorCode: AUDIT_LOG_TAMPERED,
      details: { firstBadSequence: 1, retentionDays: 30 },
    });
    const lines = logLines('audit log failed its check: retention removed nothing');
    expect(lines).toEqual([expect.objectContaining({ level: 50, firstBadSequence: 1 })]);
    expect(logged).not.toContain('ada@example.com');
    await expect(verifyAuditLog(services.db.em.fork(), services.auditChain)).resolves.toMatchObject({
      valid: false,
      firstBadSequence: 1,
    });
  });

  it('lets concurrent runs share the work without deleting an entry twice', async () => {
    const old = await Promise.all(Array.from({ length: 12 }, () => entry(45)));
    const counts = await Promise.all([1, 2, 3].map(() => deleteExpiredAuditEntries(services, { batchSize: 2 })));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(12);
    for (const id of old) {
      expect(await exists(id)).toBe(false);
    }
  });

  it('runs on the retention schedule at start, and checkpoints the chain', async () => {
    const old = await entry(100);
    await entry(1);
    const schedule = createRetentionSchedule(services);
    schedule.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await exists(old)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await schedule.close();
    }
    expect(await exists(old)).toBe(false);
    // The last entry is the prune's own record, after the retention run's (`retention.run`): 4.
    const checkpoint = await services.db.em.fork().findOne(AuditCheckpointSchema, { kind: 'checkpoint' });
    expect(checkpoint).toMatchObject({ seq: 4, count: 1, previous: '' });
    // Witnessed outside the database: a log line carrying it, and a line of AUDIT_WITNESS_FILE.
    expect(logLines('audit checkpoint')).toEqual([
      expect.objectContaining({ level: 30, auditCheckpoint: checkpoint!.signature, seq: 4, count: 1 }),
    ]);
    expect(await readFile(witnessFile, 'utf8')).toBe(`${checkpoint!.signature}\n`);
  });
});
