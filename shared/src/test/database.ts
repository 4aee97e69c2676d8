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

/**
 * Creates a database on the server of TEST_DATABASE_URL, empty or a copy of `template`; returns its
 * URL and a drop.
 */
export async function createScratchPostgres(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `intake_t_${randomBytes(6).toString('hex')}`;
  const from = template === undefined ? '' : ` template "${template}"`;
  await withAdminClient(serverUrl, (client) => client.query(`create database "${name}"${from}`));
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

/** What a migrated database is built from: every migration's name and code. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const migration of MIGRATIONS) {
    hash.update(migration.name).update(migration.class.toString());
  }
  return hash.digest('hex').slice(0, 16);
}

/** Names the PGlite template by what it is built from: PGlite's version, the migrations, its shape. */
function pgliteTemplateFingerprint(): string {
  return createHash('sha256')
    .update(readFileSync(path.join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json')))
    .update(migrationsFingerprint())
    .update('without template databases')
    .digest('hex')
    .slice(0, 16);
}

/**
 * A migrated PGlite data directory, archived once per machine and code version. Running every
 * migration takes 4 s per test file on a quiet machine and over 30 s on a loaded one (a CI hook
 * timeout); loading the archive takes half a second. The database is still migrated after loading,
 * so a stale template would only cost time.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `intake-pglite-template-${pgliteTemplateFingerprint()}.tar`);
  if (!existsSync(file)) {
    const db = await openDatabase({ pgliteDir: null });
    await migrate(db);
    const pglite = await (db.driver.getConnection() as unknown as PgliteConnection).getNativeClient();
    // The archive is unpacked into memory by every test file: without initdb's template databases,
    // which no test creates a database from, it is 27 MB and 535 files instead of 42 MB and 1,157
    // (opening it: 155 ms instead of 280, docs in the README's "How long the tests take").
    await pglite.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
    await pglite.exec('drop database template0');
    await pglite.exec('drop database template1');
    await pglite.exec('checkpoint');
    const archive = await pglite.dumpDataDir('none');
    // Written aside and renamed: a test file in another worker reads the whole archive or none.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
    renameSync(partial, file);
    await db.close(true);
  }
  return new Blob([readFileSync(file)]);
}

const POSTGRES_TEMPLATE_PREFIX = 'intake_test_template_';
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;

/**
 * The name of a migrated database on the server of `serverUrl`, built once per server and code
 * version, that each test file's database is copied from (`create database … template …`): a copy
 * takes a fraction of running every migration (about 1 s per file, several on a loaded machine).
 * Built under a name of its own and renamed when done, under an advisory lock, so a worker never
 * copies a half-built template; templates of other code versions built over a day ago are dropped
 * then. `prefix`, `fingerprint` and `staleAfterMs` are for this module's own test.
 */
export async function migratedPostgresTemplate(
  serverUrl: string,
  { prefix = POSTGRES_TEMPLATE_PREFIX, fingerprint = migrationsFingerprint(), staleAfterMs = STALE_TEMPLATE_MS } = {},
): Promise<string> {
  const name = `${prefix}${fingerprint}`;
  return withAdminClient(serverUrl, async (client) => {
    const exists = async () =>
      (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) {
      return name;
    }
    await client.query('select pg_advisory_lock(hashtext($1))', [prefix]);
    try {
      if (await exists()) {
        return name;
      }
      const building = await createScratchPostgres(serverUrl);
      try {
        const db = await openDatabase({ databaseUrl: building.url, poolSize: 1 });
        try {
          await migrate(db);
        } finally {
          await db.close(true);
        }
        const buildingName = new URL(building.url).pathname.slice(1);
        await client.query(`comment on database "${buildingName}" is '${new Date().toISOString()}'`);
        await client.query(`alter database "${buildingName}" rename to "${name}"`);
      } catch (error) {
        await building.drop();
        throw error;
      }
      await dropStaleTemplates(client, prefix, name, staleAfterMs);
      return name;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [prefix]);
    }
  });
}

/**
 * Drops the templates of other code versions built over a day ago. A newer one is left alone: another
 * checkout on this server (a branch with another migration) may be copying it right now.
 */
async function dropStaleTemplates(
  client: pg.Client,
  prefix: string,
  current: string,
  staleAfterMs: number,
): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    `select datname from pg_database
      where datname like $1 and datname <> $2
        and coalesce(shobj_description(oid, 'pg_database'), '') < $3`,
    [`${prefix.replaceAll('_', '\\_')}%`, current, new Date(Date.now() - staleAfterMs).toISOString()],
  );
  for (const { datname } of rows) {
    await client.query(`drop database if exists "${datname}"`).catch(() => undefined);
  }
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const migrated = options.migrate !== false;
  if (!serverUrl) {
    const db = await openDatabase({
      pgliteDir: null,
      ...(migrated ? { pgliteDataDirArchive: await migratedPgliteTemplate() } : {}),
    });
    if (migrated) {
      // Nothing is pending unless the template is stale; then this applies what it lacks.
      await migrate(db);
    }
    return { db, databaseUrl: undefined, driver: 'pglite', close: () => db.close(true) };
  }
  const scratch = await createScratchPostgres(
    serverUrl,
    migrated ? await migratedPostgresTemplate(serverUrl) : undefined,
  );
  const db = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  if (migrated) {
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
