import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PgliteConnection } from '@mikro-orm/pglite';
import pg from 'pg';
import { MIGRATIONS } from '@intake/migrations';
import { migrate, openDatabase, type Database } from '../db/orm.js';
import { REPO_ROOT } from './processes.js';

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

/** Names the template by what it is built from: PGlite's version and every migration's code. */
function templateFingerprint(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  for (const migration of MIGRATIONS) {
    hash.update(migration.name).update(migration.class.toString());
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated PGlite data directory, archived once per machine and code version. Running every
 * migration takes 4 s per test file on a quiet machine and over 30 s on a loaded one (a CI hook
 * timeout); loading the archive takes half a second. The database is still migrated after loading, so
 * a stale template would only cost time.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `intake-pglite-template-${templateFingerprint()}.tar`);
  if (!existsSync(file)) {
    const db = await openDatabase({ pgliteDir: null });
    await migrate(db);
    const pglite = await (db.driver.getConnection() as unknown as PgliteConnection).getNativeClient();
    const archive = await pglite.dumpDataDir('none');
    // Written aside and renamed: a test file in another worker reads the whole archive or none.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
    renameSync(partial, file);
    await db.close(true);
  }
  return new Blob([readFileSync(file)]);
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const migrated = options.migrate !== false;
    const db = await openDatabase({
      pgliteDir: null,
      ...(migrated ? { pgliteDataDirArchive: await migratedPgliteTemplate() } : {}),
    });
    if (migrated) {
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
