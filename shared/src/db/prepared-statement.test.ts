import { createTestDatabase, testDriverName, type TestDatabase } from '../test/database.js';
import { executePrepared, numberPlaceholders, preparedStatement, queryPrepared } from './prepared-statement.js';

// Seen from inside: the session's own prepared statements are listed in pg_prepared_statements, so
// this statement inserts one row when it runs prepared under its name and none when it runs unnamed.
const SEES_ITSELF = preparedStatement(
  'intake_test_sees_itself',
  `insert into prepared_statement_test (id)
    select ?::int from pg_prepared_statements where name = 'intake_test_sees_itself'`,
);

const INSERT_RETURNING = preparedStatement(
  'intake_test_insert_returning',
  'insert into prepared_statement_test (id) select unnest(?::int[]) returning id',
);

const INSERT_IF = preparedStatement(
  'intake_test_insert_if',
  'insert into prepared_statement_test (id) select ?::int where ?::boolean',
);

describe(`prepared statements on ${testDriverName()}`, () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrate: false });
    await testDb.db.driver.getConnection().execute('create table prepared_statement_test (id int primary key)');
  });

  afterAll(async () => {
    await testDb.db.driver
      .getConnection()
      .execute('drop table if exists prepared_statement_test')
      .catch(() => undefined);
    await testDb.close();
  });

  it('numbers the placeholders in order, and executes with one per parameter on PGlite', () => {
    expect(numberPlaceholders('select ?::int, ? where ? = 1')).toBe('select $1::int, $2 where $3 = 1');
    expect(preparedStatement('three', 'select ?::int, ? where ? = 1')).toEqual({
      name: 'three',
      numberedText: 'select $1::int, $2 where $3 = 1',
      executeText: 'execute three(?, ?, ?)',
    });
  });

  it('runs the statement prepared under its name, on every connection it is given', async () => {
    // More at once than the pool has connections: each new connection prepares it on first use.
    const counts = await Promise.all(
      Array.from({ length: 25 }, (_, i) => executePrepared(testDb.db, SEES_ITSELF, [100 + i])),
    );
    expect(counts).toEqual(Array.from({ length: 25 }, () => 1));
  });

  it('returns the rows affected and takes new values each time', async () => {
    expect(await executePrepared(testDb.db, INSERT_IF, [1, true])).toBe(1);
    expect(await executePrepared(testDb.db, INSERT_IF, [2, false])).toBe(0);
    expect(await executePrepared(testDb.db, INSERT_IF, [3, true])).toBe(1);
    const rows = await testDb.db.driver
      .getConnection()
      .execute<{ id: number }[]>('select id from prepared_statement_test where id < 100 order by id');
    expect(rows.map((row) => row.id)).toEqual([1, 3]);
  });

  it('raises the database error of a failing execution, and runs again after it', async () => {
    await expect(executePrepared(testDb.db, INSERT_IF, [1, true])).rejects.toMatchObject({ code: '23505' });
    expect(await executePrepared(testDb.db, INSERT_IF, [4, true])).toBe(1);
  });

  it('answers the rows of a statement with RETURNING', async () => {
    const rows = await queryPrepared<{ id: number }>(testDb.db, INSERT_RETURNING, ['{200,201}']);
    expect(rows.map((row) => row.id).sort()).toEqual([200, 201]);
    expect(await queryPrepared(testDb.db, INSERT_RETURNING, ['{}'])).toEqual([]);
  });
});
