import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/orm.js';

/** What `pg`'s Pool tells about itself. */
interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

function isPgPool(client: unknown): client is PgPoolCounts {
  const pool = client as Partial<PgPoolCounts> | null;
  return typeof pool?.totalCount === 'number' && typeof pool.idleCount === 'number';
}

/**
 * Gauges of the PostgreSQL connection pool, read at each scrape. MikroORM 7 runs kysely over a
 * `pg` Pool, which its connection hands out with `getNativeClient()`. The embedded PGlite has one
 * in-process connection and no pool, so nothing is registered there (a constant would only mislead).
 */
export function registerDatabasePoolMetrics(registry: Registry, db: Database): void {
  const connection = db.driver.getConnection();
  if (!(connection instanceof PostgreSqlConnection)) {
    return;
  }
  // Resolved once, at the first scrape (the database is open by then). Asking again later could
  // reconnect a database that was closed on shutdown.
  let pool: Promise<PgPoolCounts | undefined> | undefined;
  const readPool = () => {
    pool ??= connection.getNativeClient().then(
      (client) => (isPgPool(client) ? client : undefined),
      () => undefined,
    );
    return pool;
  };
  const gauge = (name: string, help: string, read: (pool: PgPoolCounts) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const counts = await readPool();
        const value = counts ? read(counts) : undefined;
        if (value !== undefined) {
          this.set(value);
        }
      },
    });

  gauge('intake_db_pool_connections', 'Open connections of the PostgreSQL pool, idle or in use.', (p) => p.totalCount);
  gauge('intake_db_pool_idle_connections', 'Open connections of the PostgreSQL pool not in use.', (p) => p.idleCount);
  gauge(
    'intake_db_pool_waiting_requests',
    'Queries waiting for a connection of the PostgreSQL pool.',
    (p) => p.waitingCount,
  );
  gauge('intake_db_pool_max_connections', 'Size limit of the PostgreSQL pool.', (p) => p.options?.max);
}
