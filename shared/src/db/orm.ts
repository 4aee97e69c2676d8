import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PostgresMikroORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { MIGRATIONS } from '@intake/migrations';
import { ENTITIES } from '../entities/index.js';
import { lockEmbeddedDatabase } from './embedded-database-lock.js';
import { createPgliteInChildProcess, PGLITE_CONF } from './pglite-memory.js';
import { keepDataDirPrivate } from './private-data-dir.js';
import { releaseEndedClients, type GuardedPool } from './pool-guard.js';

// The one ORM start-up used by both services, the CLI and the tests. The driver follows
// DATABASE_URL: a PostgreSQL server when set, the embedded PGlite otherwise. PGlite's driver is
// imported only when it is opened: a process on PostgreSQL never loads it (docs/performance.md).

export type Database = MikroORM;
export type Em = EntityManager;

export interface DatabaseOptions {
  /** `postgres://…`; unset means embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite's data directory; `null` keeps the embedded database in memory (tests). */
  pgliteDir?: string | null;
  /** Connection pool size on PostgreSQL. */
  poolSize?: number;
  /**
   * PGlite only: a data directory archived by PGlite's `dumpDataDir()` to start from instead of an
   * empty cluster (the tests start from one migrated template rather than running every migration).
   */
  pgliteDataDirArchive?: Blob;
}

/** How long a query may wait for a pooled connection, connecting included. */
export const CONNECTION_TIMEOUT_MS = 5000;

function commonOptions(): Partial<Options> {
  return {
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      snapshot: false,
      silent: true,
    },
    // The site change-feed triggers are hand-written in a migration (see change-feed.ts): the schema
    // diff must not offer to drop them because no entity declares them.
    // Likewise the submission search functions (see the submission search migration).
    schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true },
    // Services fork one EntityManager per request; the global one must never be used by accident.
    allowGlobalContext: false,
    debug: false,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return (await PostgresMikroORM.init({
      ...commonOptions(),
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: options.poolSize ?? 10 },
      driverOptions: {
        // A server that does not answer (or a pool with no free client for this long) is an outage
        // (503), not a request that hangs.
        connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
        onPoolCreated: (pool: GuardedPool) => releaseEndedClients(pool),
      },
    })) as unknown as Database;
  }
  const dir = options.pgliteDir ? path.resolve(options.pgliteDir) : undefined;
  if (!dir) {
    return openPglite(options);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Before initdb: two first starts on one folder must not both create it.
  const lock = lockEmbeddedDatabase(dir);
  let db: Database;
  try {
    if (!options.pgliteDataDirArchive && !existsSync(path.join(dir, 'PG_VERSION'))) {
      // initdb's memory would otherwise stay with this long-lived process (docs/performance.md).
      await createPgliteInChildProcess(dir);
    }
    db = await openPglite(options, dir);
  } catch (error) {
    lock.release();
    throw error;
  }
  try {
    // After PostgreSQL has started, which rewrites its relation cache files.
    await db.em.getConnection().execute('select 1');
    keepDataDirPrivate(dir);
  } catch (error) {
    await db.close(true).finally(() => lock.release());
    throw error;
  }
  // Held for as long as the database is open: given up when it is closed, and by the kernel when
  // the process ends however it ends.
  const close = db.close.bind(db);
  db.close = async (force?: boolean) => {
    try {
      await close(force);
    } finally {
      lock.release();
    }
  };
  return db;
}

async function openPglite(options: DatabaseOptions, dir?: string): Promise<Database> {
  const [{ MikroORM: PgliteMikroORM }, { pg_trgm }, { unaccent }] = await Promise.all([
    import('@mikro-orm/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
  ]);
  return (await PgliteMikroORM.init({
    ...commonOptions(),
    ...(dir ? { dbName: dir } : {}),
    // PGlite loads an extension only when it is handed to the constructor; the submission search
    // migration then creates them as on PostgreSQL.
    // A function, because MikroORM copies an options object, and a copied Blob cannot be read.
    driverOptions: () => ({
      postgresqlconf: PGLITE_CONF,
      extensions: { pg_trgm, unaccent },
      ...(options.pgliteDataDirArchive ? { loadDataDir: options.pgliteDataDirArchive } : {}),
    }),
  })) as unknown as Database;
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(db: Database): Promise<string[]> {
  const applied = await db.migrator.up();
  return applied.map((migration) => migration.name);
}

/** True when the database answers a trivial query (readiness). */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.em.fork().getConnection().execute('select 1');
    return true;
  } catch {
    return false;
  }
}
