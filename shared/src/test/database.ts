import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type Database } from '../db/orm.js';

// One database per test file, migrated: an in-memory PGlite by default, or, when
// TEST_DATABASE_URL is set, a fresh database created on that PostgreSQL server and dropped after.

export interface TestDatabase {
  db: Database;
  /** The URL of the per-file PostgreSQL database, or undefined on PGlite. */
  databaseUrl: string | undefined;
  /** 'postgresql' or 'pglite', for test titles. */
  driver: 'postgresql' | 'pglite';
  close(): Promise<void>;
}

export function testDriverName(): 'postgresql' | 'pglite' {
  return process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite';
}

async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the server of TEST_DATABASE_URL; returns its URL and a drop. */
export async function createScratchPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `intake_t_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(
        () => undefined,
      ),
  };
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ pgliteDir: null });
    if (options.migrate !== false) {
      await migrate(db);
    }
    return { db, databaseUrl: undefined, driver: 'pglite', close: () => db.close(true) };
  }
  const scratch = await createScratchPostgres(serverUrl);
  const db = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  if (options.migrate !== false) {
    await migrate(db);
  }
  return {
    db,
    databaseUrl: scratch.url,
    driver: 'postgresql',
    close: async () => {
      await db.close(true);
      await scratch.drop();
    },
  };
}
