import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase } from '../db/orm.js';
import { createLogger } from '../logger/index.js';
import { createServices, type Services } from '../services/index.js';
import { testConfig } from './config.js';

/**
 * A scratch PostgreSQL database owned by a scratch role that is not a superuser (superusers are
 * exempt from connection limits), with the server-side switches that make a real database refuse
 * service: each answers with the SQLSTATE a production outage does, not a cut TCP connection.
 */
export interface OutageDatabase {
  services: Services;
  /** `ALTER DATABASE … ALLOW_CONNECTIONS false`: new connections get 55000. */
  refuseConnections(): Promise<void>;
  /** `ALTER DATABASE … CONNECTION LIMIT 0`: new connections get 53300. */
  limitConnections(): Promise<void>;
  /** Undoes both. */
  restore(): Promise<void>;
  /** Ends the pool's open connections, so its next query must connect. */
  terminateConnections(): Promise<void>;
  /**
   * Locks `table` from another session, waits until a backend of the service waits on that lock,
   * and then terminates it (57P01 to the waiting query); releases the lock.
   */
  terminateWhileWaitingOn(table: string, during: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createOutageDatabase(
  serverUrl: string,
  env: Record<string, string> = {},
): Promise<OutageDatabase> {
  const suffix = randomBytes(6).toString('hex');
  const role = `intake_o_${suffix}`;
  const name = `intake_o_${suffix}`;
  await withClient(serverUrl, async (client) => {
    await client.query(`create role "${role}" login`);
    await client.query(`create database "${name}" owner "${role}"`);
  });
  const url = new URL(serverUrl);
  url.username = role;
  url.password = '';
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  await migrate(db);
  const config = testConfig({ ...env, DATABASE_URL: url.toString() });
  const services = createServices(config, db, createLogger(config.logLevel));
  const admin = (sql: string) => withClient(serverUrl, (client) => client.query(sql)).then(() => undefined);
  const terminateConnections = () =>
    admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`).then(
      () => new Promise<void>((resolve) => setTimeout(resolve, 200)),
    );
  return {
    services,
    refuseConnections: () => admin(`alter database "${name}" allow_connections false`),
    limitConnections: () => admin(`alter database "${name}" connection limit 0`),
    restore: () => admin(`alter database "${name}" allow_connections true connection limit -1`),
    terminateConnections,
    async terminateWhileWaitingOn(table, during) {
      const lockUrl = new URL(serverUrl);
      lockUrl.pathname = `/${name}`;
      const locker = new pg.Client({ connectionString: lockUrl.toString() });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query(`lock table "${table}" in access exclusive mode`);
        const waiting = during();
        const lockPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        // Polled from another session: inside the locker's transaction pg_stat_activity is one snapshot.
        for (let attempt = 0; attempt < 100; attempt++) {
          const { rowCount } = await withClient(serverUrl, (client) =>
            client.query(
              `select pg_terminate_backend(pid) from pg_stat_activity
                where datname = $1 and pid <> $2 and wait_event_type = 'Lock'`,
              [name, lockPid],
            ),
          );
          if (rowCount) {
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await locker.query('rollback');
        await waiting;
      } finally {
        await locker.end();
      }
    },
    async close() {
      await db.close(true);
      await withClient(serverUrl, async (client) => {
        await client.query(`drop database if exists "${name}" with (force)`);
        await client.query(`drop role if exists "${role}"`);
      });
    },
  };
}
