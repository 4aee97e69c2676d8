// The floor of the throughput targets: Intake's own INSERT of a plain submission, timed apart from
// any HTTP, as the gateway sends it (insertSingleStatementIfAccepting: the guard, prepared) into the
// migrated schema (the submission row's indexes, its unique idempotency key, and the trigger that
// queues it for the search indexer). Same callers as the raw insert ceilings: 20 over a pool of 10 on
// PostgreSQL, one in this process on PGlite. Where this is under half of the raw insert, the
// "≥ 50 % of raw inserts" target is below what the database does for the row itself.
// Beside it, the same row through the submission store with group commit (docs/performance.md): 20
// callers on both databases, as concurrent requests would be, so their writes can share commits.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type Database } from '@intake/shared/db';
import { insertSingleStatementIfAccepting } from '@intake/gateway/submission-insert';
import { submissionStore } from '@intake/gateway/submission-store';
import { createBenchForm } from './bench-form.js';
import { ceilingRow, drive, type InsertFigure } from './insert-ceiling.js';
import { createScratchDatabase } from './scratch-postgres.js';

export interface IntakeInsertFigures {
  postgresql: InsertFigure;
  pglite: InsertFigure;
  /** Through the submission store, grouped; with how many rows its groups held on average. */
  grouped: { postgresql: GroupedFigure; pglite: GroupedFigure };
}

export type GroupedFigure = InsertFigure & { rowsPerGroup: number };

/** The row written through the store with group commit on, from 20 callers at once. */
async function driveGroupedWrites(
  db: Database,
  options: { seconds: number; warmupSeconds: number },
): Promise<GroupedFigure> {
  const { site, form } = await createBenchForm(db, { name: 'Bench grouped', domain: 'grouped.bench.test' });
  const row = ceilingRow();
  const data = JSON.parse(row) as Record<string, unknown>;
  const store = submissionStore(db, { maxRows: 64, windowMs: 0 });
  const write = () =>
    store.write({
      id: randomUUID(),
      createdAt: new Date(),
      receipt: 'r'.repeat(560),
      site,
      form,
      webhookIds: [],
      data,
      sanitizedFields: [],
      idempotencyKey: null,
      spamReason: undefined,
      duplicateFilter: null,
      files: [],
    });
  await drive(write, 20, options.warmupSeconds);
  const before = { ...store.groupCounts };
  const figure = await drive(write, 20, options.seconds);
  const groups = store.groupCounts.groups - before.groups;
  const rows = store.groupCounts.rows - before.rows;
  return { ...figure, rowBytes: Buffer.byteLength(row), rowsPerGroup: groups > 0 ? rows / groups : 0 };
}

async function driveIntakeInserts(
  db: Database,
  callers: number,
  options: { seconds: number; warmupSeconds: number },
): Promise<InsertFigure> {
  await migrate(db);
  const { site, form } = await createBenchForm(db);
  const row = ceilingRow();
  const data = JSON.parse(row) as Record<string, unknown>;
  // A receipt of a plain submission is about 560 characters; its content does not matter to the database.
  const receipt = 'r'.repeat(560);
  const insertOne = () =>
    insertSingleStatementIfAccepting(
      db,
      {
        id: randomUUID(),
        createdAt: new Date(),
        formId: form.id,
        data,
        sanitizedFields: [],
        idempotencyKey: null,
        spamReason: null,
        receipt,
        files: [],
      },
      site,
    );
  await drive(insertOne, callers, options.warmupSeconds);
  return { ...(await drive(insertOne, callers, options.seconds)), rowBytes: Buffer.byteLength(row) };
}

export async function measureIntakeInserts(
  serverUrl: string,
  options: { seconds: number; warmupSeconds: number },
): Promise<IntakeInsertFigures> {
  const scratch = await createScratchDatabase(serverUrl);
  let postgresql: InsertFigure;
  let groupedPostgresql: GroupedFigure;
  try {
    const db = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
    try {
      postgresql = await driveIntakeInserts(db, 20, options);
      groupedPostgresql = await driveGroupedWrites(db, options);
    } finally {
      await db.close(true);
    }
  } finally {
    await scratch.drop();
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-insert-'));
  try {
    const db = await openDatabase({ pgliteDir: dir });
    try {
      const pglite = await driveIntakeInserts(db, 1, options);
      const grouped = { postgresql: groupedPostgresql, pglite: await driveGroupedWrites(db, options) };
      return { postgresql, pglite, grouped };
    } finally {
      await db.close(true);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
