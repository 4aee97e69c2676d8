import pg from 'pg';
import { createTestDatabase, testDriverName, type TestDatabase } from '../test/database.js';
import { describeOnPostgres } from '../test/real-part.js';
import { openDatabase, type Database } from './orm.js';

// A transaction whose connection dies must not take its pooled client with it (kysely#1990): with a
// pool of one, the next query would otherwise wait for a client that never comes back.

describeOnPostgres(`pooled connections on ${testDriverName()}`, () => {
  let testDb: TestDatabase;
  let db: Database;
  let admin: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrate: false });
    db = await openDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 1 });
    admin = new pg.Client({ connectionString: testDb.databaseUrl });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await db?.close(true);
    await testDb?.close();
  });

  async function backendPid(em: ReturnType<Database['em']['fork']>): Promise<number> {
    const rows = await em.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
    return rows[0]!.pid;
  }

  async function answersWithin(ms: number): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([db.em.fork().execute<{ one: number }[]>('select 1 as one'), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('gives the client back when the connection dies inside a transaction (the rollback fails too)', async () => {
    await expect(
      db.em.fork().transactional(async (em) => {
        await admin.query('select pg_terminate_backend($1)', [await backendPid(em)]);
        await em.execute('select 1');
      }),
    ).rejects.toThrow();
    expect(await answersWithin(3000)).toEqual([{ one: 1 }]);
  });

  it('gives the client back when the connection dies just before COMMIT', async () => {
    await expect(
      db.em.fork().transactional(async (em) => {
        await admin.query('select pg_terminate_backend($1)', [await backendPid(em)]);
      }),
    ).rejects.toThrow();
    expect(await answersWithin(3000)).toEqual([{ one: 1 }]);
  });
});
