import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { MIGRATIONS } from '@intake/migrations';
import { createTestDatabase, migratedPostgresTemplate } from './database.js';
import { describeOnPostgres } from './real-part.js';

describeOnPostgres('test databases copied from a migrated template on PostgreSQL', (serverUrl) => {
  const prefix = `intake_test_probe_${randomBytes(4).toString('hex')}_`;
  const query = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const probeTemplates = async () =>
    (await query('select datname from pg_database where starts_with(datname, $1) order by datname', [prefix])).map(
      (row) => row.datname,
    );

  afterAll(async () => {
    for (const name of await probeTemplates()) {
      await query(`drop database if exists "${String(name)}"`);
    }
  });

  it('gives each file a fully migrated database of its own', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      const applied = await first.db.em
        .fork()
        .getConnection()
        .execute<{ name: string }[]>('select name from mikro_orm_migrations');
      expect(applied.map((row) => row.name).sort()).toEqual(MIGRATIONS.map((migration) => migration.name).sort());
      await first.db.em.fork().getConnection().execute('create table only_here (id int)');
      const elsewhere = await second.db.em
        .fork()
        .getConnection()
        .execute<{ found: string | null }[]>("select to_regclass('only_here')::text as found");
      expect(elsewhere[0]!.found).toBeNull();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('builds a template once under concurrent callers, and drops other versions only once stale', async () => {
    const names = await Promise.all(
      [1, 2, 3].map(() => migratedPostgresTemplate(serverUrl, { prefix, fingerprint: 'a' })),
    );
    expect(new Set(names)).toEqual(new Set([`${prefix}a`]));
    expect(await probeTemplates()).toEqual([`${prefix}a`]);

    // Another checkout's fresh template may be in use: it stays.
    await migratedPostgresTemplate(serverUrl, { prefix, fingerprint: 'b' });
    expect(await probeTemplates()).toEqual([`${prefix}a`, `${prefix}b`]);

    await migratedPostgresTemplate(serverUrl, { prefix, fingerprint: 'c', staleAfterMs: 0 });
    expect(await probeTemplates()).toEqual([`${prefix}c`]);
  });
});
