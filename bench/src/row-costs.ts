// What each part of the submission row costs the database on insert (issue #37): the row's columns
// alone, then one part added at a time (row-cost-variants.ts), on a scratch PostgreSQL database and
// on PGlite on disk, each migrated so the search text's functions and extensions exist. The insert
// is the raw one of the insert ceilings (insert-ceiling.ts), with the columns Intake's INSERT sets:
// single rows, each its own transaction, from the same callers (20 over a pool of 10 on PostgreSQL,
// one on PGlite); and groups of GROUP_ROWS rows in one statement (Intake's group commit writes about
// that many per commit on PostgreSQL under the bench's load), from the same callers. Each variant is
// measured once per round (warmed up in the first), in the opposite order on alternate rounds, and
// its best round is kept: on shared cores a slow second spreads over variants rather than landing on
// one. Beside the throughput, the database's own CPU per row, which moves far less with the machine's load.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lockFileOf, migrate, openDatabase, type Database } from '@intake/shared/db';
import { createBenchForm } from './bench-form.js';
import { drive } from './insert-ceiling.js';
import { BARE_ROW, bodyOf, rowCostVariants, type BodySize, type RowVariant } from './row-cost-variants.js';
import { createScratchDatabase } from './scratch-postgres.js';

export const GROUP_ROWS = 10;

export interface RowCostSettings {
  /** Measured seconds per variant, mode and round. */
  seconds: number;
  warmupSeconds: number;
  rounds: number;
}

export interface RowCostFigure {
  perSecond: number;
  /** The database's CPU per row: PostgreSQL's backends serving the pool (/proc), PGlite's whole process. */
  cpuMicrosPerRow: number | null;
}

export interface RowCostRow {
  variant: string;
  baseline: string | null;
  body: BodySize;
  bodyBytes: number;
  single: RowCostFigure;
  grouped: RowCostFigure;
}

export interface RowCostResults {
  settings: RowCostSettings & { groupRows: number };
  postgresql: { database: string; rows: RowCostRow[] };
  pglite: { database: string; rows: RowCostRow[] };
}

/** Where the rows go: how many callers, how a statement runs, and the database's CPU so far (µs). */
export interface InsertTarget {
  callers: number;
  run(sql: string, params: unknown[]): Promise<unknown>;
  cpuMicros(): number | null;
}

const COLUMNS = `"id", "form_id", "data", "sanitized_fields", "created_at", "idempotency_key", "spam", "spam_reason", "content_hash", "receipt"`;

const singleInsert = (table: string) =>
  `insert into "${table}" (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

// As Intake's group statement does: the rows travel as one JSON document.
const groupInsert = (table: string) =>
  `insert into "${table}" (${COLUMNS}) select g."id", g."form_id", g."data", g."sanitized_fields", g."created_at", ` +
  `g."idempotency_key", g."spam", g."spam_reason", g."content_hash", g."receipt" ` +
  `from jsonb_to_recordset($1::jsonb) as g("id" uuid, "form_id" uuid, "data" jsonb, "sanitized_fields" jsonb, ` +
  `"created_at" timestamptz, "idempotency_key" text, "spam" boolean, "spam_reason" text, "content_hash" text, "receipt" text)`;

// A plain submission's receipt is about 560 characters (intake-insert.ts); its content does not matter here.
const RECEIPT = 'r'.repeat(560);

/** One row, and one group of GROUP_ROWS rows, into the variant's table, each a statement of its own. */
export function rowInserters(variant: RowVariant, formId: string, target: InsertTarget) {
  const body = bodyOf(variant.body);
  const single = singleInsert(variant.table);
  const group = groupInsert(variant.table);
  // Everything of a grouped row but its id and time, written once.
  const rest = JSON.stringify({
    form_id: formId,
    data: JSON.parse(body) as unknown,
    sanitized_fields: [],
    idempotency_key: null,
    spam: false,
    spam_reason: null,
    content_hash: null,
    receipt: RECEIPT,
  }).slice(1);
  return {
    bodyBytes: Buffer.byteLength(body),
    single: () => target.run(single, [randomUUID(), formId, body, '[]', new Date(), null, false, null, null, RECEIPT]),
    grouped: () => {
      const at = new Date().toISOString();
      const rows = Array.from({ length: GROUP_ROWS }, () => `{"id":"${randomUUID()}","created_at":"${at}",${rest}`);
      return target.run(group, [`[${rows.join(',')}]`]);
    },
  };
}

async function measureOne(
  insertOne: () => Promise<unknown>,
  rowsPerCall: number,
  target: InsertTarget,
  settings: RowCostSettings,
  warmUp: boolean,
): Promise<RowCostFigure> {
  if (warmUp) {
    await drive(insertOne, target.callers, settings.warmupSeconds);
  }
  const cpuBefore = target.cpuMicros();
  const figure = await drive(insertOne, target.callers, settings.seconds);
  const cpuAfter = target.cpuMicros();
  const rows = figure.inserts * rowsPerCall;
  return {
    perSecond: figure.perSecond * rowsPerCall,
    cpuMicrosPerRow: cpuBefore === null || cpuAfter === null || rows === 0 ? null : (cpuAfter - cpuBefore) / rows,
  };
}

const better = (a: RowCostFigure | undefined, b: RowCostFigure): RowCostFigure =>
  a === undefined
    ? b
    : {
        perSecond: Math.max(a.perSecond, b.perSecond),
        cpuMicrosPerRow:
          a.cpuMicrosPerRow === null || b.cpuMicrosPerRow === null
            ? null
            : Math.min(a.cpuMicrosPerRow, b.cpuMicrosPerRow),
      };

/** Creates every variant's table (the migrated one exists already) and measures them round by round. */
async function measureVariants(
  target: InsertTarget,
  formId: string,
  settings: RowCostSettings,
  progress: (step: string) => void,
): Promise<RowCostRow[]> {
  const variants = rowCostVariants();
  for (const statement of variants.flatMap((variant) => variant.ddl)) {
    await target.run(statement, []);
  }
  const best = new Map<string, { single?: RowCostFigure; grouped?: RowCostFigure; bodyBytes: number }>();
  for (let round = 0; round < settings.rounds; round += 1) {
    progress(`row costs: round ${round + 1} of ${settings.rounds}`);
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      const insert = rowInserters(variant, formId, target);
      const kept = best.get(variant.name) ?? { bodyBytes: insert.bodyBytes };
      const warmUp = round === 0;
      kept.single = better(kept.single, await measureOne(insert.single, 1, target, settings, warmUp));
      kept.grouped = better(kept.grouped, await measureOne(insert.grouped, GROUP_ROWS, target, settings, warmUp));
      best.set(variant.name, kept);
    }
  }
  return variants.map((variant) => {
    const kept = best.get(variant.name)!;
    return {
      variant: variant.name,
      baseline: variant.baseline,
      body: variant.body,
      bodyBytes: kept.bodyBytes,
      single: kept.single!,
      grouped: kept.grouped!,
    };
  });
}

/** Total CPU time (µs) the kernel has counted for these processes, or null where /proc cannot tell (a remote server). */
function schedulerMicros(pids: number[]): number | null {
  try {
    return pids.reduce(
      (sum, pid) => sum + Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000,
      0,
    );
  } catch {
    return null;
  }
}

/** The PGlite instance under an embedded Database: its one connection's native client. */
export async function pgliteOf(db: Database): Promise<PGlite> {
  const connection = db.driver.getConnection() as unknown as { getNativeClient(): Promise<PGlite> };
  return connection.getNativeClient();
}

/** Migrates the database and makes the bench's form (the migrated table's foreign key needs one). */
async function prepared(db: Database): Promise<string> {
  await migrate(db);
  const { form } = await createBenchForm(db, { name: 'Bench row costs', domain: 'row-costs.bench.test' });
  return form.id;
}

async function onPostgres(
  serverUrl: string,
  settings: RowCostSettings,
  progress: (step: string) => void,
): Promise<RowCostResults['postgresql']> {
  const scratch = await createScratchDatabase(serverUrl);
  try {
    const db = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    let formId: string;
    try {
      formId = await prepared(db);
    } finally {
      await db.close(true);
    }
    // The gateway's pool size; kept open so its backends, whose CPU is read, stay the same.
    const pool = new pg.Pool({ connectionString: scratch.url, max: 10, idleTimeoutMillis: 0 });
    try {
      const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
      const pids = await Promise.all(
        clients.map(
          async (client) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid,
        ),
      );
      clients.forEach((client) => client.release());
      const target: InsertTarget = {
        callers: 20,
        run: (sql, params) => pool.query(sql, params),
        cpuMicros: () => schedulerMicros(pids),
      };
      return { database: scratch.description, rows: await measureVariants(target, formId, settings, progress) };
    } finally {
      await pool.end();
    }
  } finally {
    await scratch.drop();
  }
}

async function onPglite(
  settings: RowCostSettings,
  progress: (step: string) => void,
): Promise<RowCostResults['pglite']> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-row-costs-'));
  try {
    // Opened as Intake opens it (its settings, the search extensions loaded); the rows go through
    // PGlite's own client, as the raw PGlite inserts do.
    const db = await openDatabase({ pgliteDir: dir });
    try {
      const formId = await prepared(db);
      const pglite = await pgliteOf(db);
      const target: InsertTarget = {
        callers: 1,
        run: (sql, params) => pglite.query(sql, params),
        cpuMicros: () => {
          const cpu = process.cpuUsage();
          return cpu.user + cpu.system;
        },
      };
      return {
        database: 'PGlite on disk in a temporary folder, opened as Intake opens it',
        rows: await measureVariants(target, formId, settings, progress),
      };
    } finally {
      await db.close(true);
    }
  } finally {
    // The embedded database's lock file lies beside its folder.
    await Promise.all([rm(dir, { recursive: true, force: true }), rm(lockFileOf(dir), { force: true })]);
  }
}

export async function measureRowCosts(
  serverUrl: string,
  settings: RowCostSettings,
  progress: (step: string) => void,
): Promise<RowCostResults> {
  progress('row costs on PostgreSQL: the bare row, then one part at a time');
  const postgresql = await onPostgres(serverUrl, settings, progress);
  progress('row costs on PGlite');
  const pglite = await onPglite(settings, progress);
  return { settings: { ...settings, groupRows: GROUP_ROWS }, postgresql, pglite };
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const signed = (micros: number) => `${micros >= 0 ? '+' : ''}${fixed(micros, 1)}`;

/** µs of wall time per row at this throughput, less its baseline's: what the part adds. */
function marginal(rows: RowCostRow[], row: RowCostRow, mode: 'single' | 'grouped'): string {
  const baseline = rows.find((other) => other.variant === row.baseline);
  if (!baseline || row[mode].perSecond === 0 || baseline[mode].perSecond === 0) {
    return '';
  }
  return signed(1e6 / row[mode].perSecond - 1e6 / baseline[mode].perSecond);
}

/** The database's CPU per row, and in brackets what it adds to its baseline's. */
function cpu(rows: RowCostRow[], row: RowCostRow, mode: 'single' | 'grouped'): string {
  const own = row[mode].cpuMicrosPerRow;
  if (own === null) {
    return '';
  }
  const baseline = rows.find((other) => other.variant === row.baseline)?.[mode].cpuMicrosPerRow;
  return baseline === undefined || baseline === null ? fixed(own, 1) : `${fixed(own, 1)} (${signed(own - baseline)})`;
}

export function rowCostTable(rows: RowCostRow[]) {
  const bare = rows.find((row) => row.variant === BARE_ROW)!;
  const share = (row: RowCostRow, mode: 'single' | 'grouped') =>
    bare[mode].perSecond > 0 ? `${fixed((row[mode].perSecond / bare[mode].perSecond) * 100)} %` : '';
  return rows.map((row) => ({
    variant: row.variant,
    'rows/s': fixed(row.single.perSecond),
    '% of bare': share(row, 'single'),
    'µs/row added': marginal(rows, row, 'single'),
    'DB CPU µs/row (added)': cpu(rows, row, 'single'),
    [`grouped (${GROUP_ROWS}) rows/s`]: fixed(row.grouped.perSecond),
    'grouped % of bare': share(row, 'grouped'),
    'grouped µs/row added': marginal(rows, row, 'grouped'),
    'grouped DB CPU µs/row (added)': cpu(rows, row, 'grouped'),
  }));
}

export function printRowCosts(results: RowCostResults): void {
  const { settings } = results;
  for (const database of ['postgresql', 'pglite'] as const) {
    console.log(
      `What the submission row costs ${database === 'postgresql' ? 'PostgreSQL' : 'PGlite'} on insert ` +
        `(${results[database].database}; each part added to the row above it; best of ${settings.rounds} rounds ` +
        `of ${settings.seconds} s; "added": µs per row against that row, or against the same table with the plain body)`,
    );
    console.table(rowCostTable(results[database].rows));
  }
}
