// A scratch database for one bench run on the server of BENCH_DATABASE_URL: created empty,
// migrated by the gateway under test, dropped at the end whatever happens.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  /** `PostgreSQL 15.4 at 127.0.0.1:5432`, for the report. */
  description: string;
  drop(): Promise<void>;
}

async function onServer<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `intake_bench_${randomBytes(6).toString('hex')}`;
  const version = await onServer(serverUrl, async (client) => {
    await client.query(`create database "${name}"`);
    const result = await client.query<{ server_version: string }>('show server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    description: `PostgreSQL ${version.split(' ')[0]} at ${url.host} (scratch database ${name})`,
    drop: () =>
      onServer(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(
        () => undefined,
      ),
  };
}
