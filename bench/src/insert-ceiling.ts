// Ceiling of the JSON figures on each database: single-row inserts of a ~500-byte jsonb document,
// each its own (autocommit) transaction, as fast as the database takes them. PostgreSQL through
// `pg` with a pool of 10 (the gateway's pool size) kept busy by 20 callers; PGlite, which has one
// connection, from one caller in this process.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface InsertFigure {
  perSecond: number;
  p50: number;
  p99: number;
  inserts: number;
  seconds: number;
  rowBytes: number;
  /** CPU time of this process per insert: the `pg` client's work (PGlite's: the whole database's). */
  cpuMicrosPerInsert: number;
}

const CREATE_TABLE =
  'create table if not exists bench_insert_ceiling (id uuid primary key, data jsonb not null, created_at timestamptz not null)';
const INSERT = 'insert into bench_insert_ceiling (id, data, created_at) values ($1, $2, $3)';

/** A contact-form document of about 500 bytes of JSON. */
export function ceilingRow(): string {
  return JSON.stringify({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    message:
      'Hello, I would like to hear more about the analytical engine and the notes on Bernoulli numbers. ' +
      'Could you call me back next week? I am available on Tuesday and Thursday afternoons, or by e-mail ' +
      'at any time. Thank you for your time, and kind regards from London. '.repeat(2),
    source: 'contact-page',
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Runs `callers` loops of `insertOne` for `seconds`; latencies in ms. */
export async function drive(
  insertOne: () => Promise<unknown>,
  callers: number,
  seconds: number,
): Promise<Omit<InsertFigure, 'rowBytes'>> {
  const latencies: number[] = [];
  const cpuAtStart = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const at = performance.now();
        await insertOne();
        latencies.push(performance.now() - at);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    inserts: latencies.length,
    seconds: elapsed,
    cpuMicrosPerInsert: latencies.length > 0 ? (cpu.user + cpu.system) / latencies.length : 0,
  };
}

export async function postgresInsertCeiling(
  databaseUrl: string,
  options: { seconds: number; warmupSeconds: number },
): Promise<InsertFigure> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  try {
    await pool.query(CREATE_TABLE);
    const row = ceilingRow();
    const insertOne = () => pool.query(INSERT, [randomUUID(), row, new Date()]);
    await drive(insertOne, 20, options.warmupSeconds);
    return { ...(await drive(insertOne, 20, options.seconds)), rowBytes: Buffer.byteLength(row) };
  } finally {
    await pool.query('drop table if exists bench_insert_ceiling').catch(() => undefined);
    await pool.end();
  }
}

/** PGlite on disk in a temporary folder, like the embedded default (DATA_DIR/db). */
export async function pgliteInsertCeiling(options: { seconds: number; warmupSeconds: number }): Promise<InsertFigure> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-pglite-'));
  const db = await PGlite.create({ dataDir: dir });
  try {
    await db.query(CREATE_TABLE);
    const row = ceilingRow();
    const insertOne = () => db.query(INSERT, [randomUUID(), row, new Date()]);
    await drive(insertOne, 1, options.warmupSeconds);
    return { ...(await drive(insertOne, 1, options.seconds)), rowBytes: Buffer.byteLength(row) };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
