// A statement the server parses and plans once per connection instead of once per call. Planning
// the gateway's guarded INSERT (a join of forms and sites inside it) cost more than running it:
// on PGlite about 600 µs per call unprepared, about 320 µs prepared (docs/performance.md, item 11).
// PostgreSQL: a named statement of the `pg` driver (extended protocol), prepared on each client of
// MikroORM's pool the first time and reused after; a transaction-mode pooler must support
// protocol-level prepared statements (PgBouncer 1.21 or later, `max_prepared_statements` set).
// PGlite: one connection and no named statements in its API, so SQL `PREPARE` once per instance and
// `EXECUTE` after; a reconnect makes a new instance, which is prepared again.
import type { PgliteConnection } from '@mikro-orm/pglite';
import { isPgliteConnection } from './pglite-connection.js';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Database } from './orm.js';

export interface PreparedStatement {
  /** Unique per statement text: a server keeps one plan per name. */
  name: string;
  /** The statement with numbered placeholders (`$1`, `$2`, …), as PostgreSQL's protocol and PREPARE take it. */
  numberedText: string;
  /** PGlite's way to run it: `EXECUTE name(?, …)`, one `?` per parameter. */
  executeText: string;
}

/**
 * A statement to prepare, written with `?` placeholders as everywhere else in the services. Its
 * texts are made here, once, not on every execution: the gateway runs it for every submission.
 */
export function preparedStatement(name: string, text: string): PreparedStatement {
  const numberedText = numberPlaceholders(text);
  const parameters = text.split('?').length - 1;
  return { name, numberedText, executeText: `execute ${name}(${Array(parameters).fill('?').join(', ')})` };
}

interface PooledClient {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rowCount: number | null; rows: unknown[] }>;
  release(): void;
}

interface PgPool {
  connect(): Promise<PooledClient>;
}

/** `?` becomes `$1`, `$2`, …: the form PostgreSQL's own protocol and PREPARE take. */
export function numberPlaceholders(text: string): string {
  let position = 0;
  return text.replace(/\?/g, () => `$${++position}`);
}

// PGlite instances on which a statement is prepared (or being prepared: concurrent first calls share it).
const preparedOnPglite = new WeakMap<object, Map<string, Promise<void>>>();

/** Runs the statement with `values`; returns the number of rows it affected. Errors as the driver raises them. */
export async function executePrepared(db: Database, statement: PreparedStatement, values: unknown[]): Promise<number> {
  return (await runPrepared(db, statement, values, 'run')).rowCount;
}

/** Runs the statement with `values`; returns the rows it answers (a SELECT, or RETURNING). */
export async function queryPrepared<Row extends object>(
  db: Database,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  return (await runPrepared(db, statement, values, 'all')).rows as Row[];
}

async function runPrepared(
  db: Database,
  statement: PreparedStatement,
  values: unknown[],
  method: 'run' | 'all',
): Promise<{ rowCount: number; rows: unknown[] }> {
  const connection = db.driver.getConnection();
  if (connection instanceof PostgreSqlConnection) {
    // The guarded pool (pool-guard.ts): a failure to connect is marked as an outage.
    const pool = (await connection.getNativeClient()) as unknown as PgPool;
    const client = await pool.connect();
    try {
      const result = await client.query({ name: statement.name, text: statement.numberedText, values });
      return { rowCount: result.rowCount ?? 0, rows: result.rows };
    } finally {
      client.release();
    }
  }
  if (isPgliteConnection(connection)) {
    await prepareOnPglite(connection, statement);
    if (method === 'all') {
      const rows = await connection.execute<unknown[]>(statement.executeText, values, 'all');
      return { rowCount: rows.length, rows };
    }
    const result = await connection.execute<{ affectedRows: number }>(statement.executeText, values, 'run');
    return { rowCount: result.affectedRows, rows: [] };
  }
  throw new Error('executePrepared: unsupported database driver');
}

async function prepareOnPglite(connection: PgliteConnection, statement: PreparedStatement): Promise<void> {
  const instance = (await connection.getNativeClient()) as object;
  let prepared = preparedOnPglite.get(instance);
  if (!prepared) {
    prepared = new Map();
    preparedOnPglite.set(instance, prepared);
  }
  let done = prepared.get(statement.name);
  if (!done) {
    done = connection
      .execute(`prepare ${statement.name} as ${statement.numberedText}`, [], 'run')
      .then(() => undefined);
    // A failed PREPARE (the database away) is tried again by the next call.
    done.catch(() => prepared.delete(statement.name));
    prepared.set(statement.name, done);
  }
  await done;
}
