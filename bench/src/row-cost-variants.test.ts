// The row-cost step's variants (row-cost-variants.ts) on the test database: each one's DDL is valid,
// each adds exactly one part to the one before it, and the last of them has the migrated
// `submissions` table's columns and indexes, so the step measures the row Intake really writes. One
// row and one group go into every variant through the step's own statements. Nothing is timed.
import { jest } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@intake/shared/test';
import { createBenchForm } from './bench-form.js';
import { BARE_ROW, bodyOf, MIGRATED_ROW, ROW_PARTS, rowCostVariants } from './row-cost-variants.js';
import { GROUP_ROWS, pgliteOf, rowInserters } from './row-costs.js';

jest.setTimeout(60_000);

type Run = <Row>(sql: string, params?: unknown[]) => Promise<Row[]>;

let test: TestDatabase;
let client: pg.Client | undefined;
let run: Run;

beforeAll(async () => {
  test = await createTestDatabase();
  if (test.databaseUrl) {
    const pgClient = new pg.Client({ connectionString: test.databaseUrl });
    await pgClient.connect();
    client = pgClient;
    run = async <Row>(sql: string, params: unknown[] = []) => (await pgClient.query(sql, params)).rows as Row[];
  } else {
    const pglite = await pgliteOf(test.db);
    run = async <Row>(sql: string, params: unknown[] = []) => (await pglite.query<Row>(sql, params)).rows;
  }
});

afterAll(async () => {
  await client?.end();
  await test?.close();
});

/** The table's index definitions without their own names or the table's, sorted. */
async function indexShapes(table: string): Promise<string[]> {
  const rows = await run<{ indexdef: string }>(`select indexdef from pg_indexes where tablename = $1`, [table]);
  return rows.map((row) => row.indexdef.replace(/^(CREATE (?:UNIQUE )?INDEX) \S+ ON \S+ /, '$1 ')).sort();
}

async function columnShapes(table: string): Promise<string[]> {
  const rows = await run<Record<string, string | null>>(
    `select column_name, data_type, character_maximum_length, is_nullable, column_default, generation_expression
     from information_schema.columns where table_name = $1 order by column_name`,
    [table],
  );
  return rows.map((row) => JSON.stringify(row));
}

describe(`row-cost variants on ${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'}`, () => {
  it('builds the row one part at a time up to the migrated table, and takes the step’s inserts', async () => {
    const { form } = await createBenchForm(test.db);
    const variants = rowCostVariants();
    const structural = variants.filter((variant) => variant.body === 'plain');
    expect(structural.map((variant) => variant.name)).toEqual([
      BARE_ROW,
      ...ROW_PARTS.map((part) => part.name),
      MIGRATED_ROW,
    ]);
    for (const statement of variants.flatMap((variant) => variant.ddl)) {
      await run(statement);
    }

    // Each variant: the one before it, and one more index, or one more column (the search text).
    const synthetic = structural.slice(0, -1);
    for (let position = 1; position < synthetic.length; position += 1) {
      const [before, after] = [synthetic[position - 1]!.table, synthetic[position]!.table];
      const [indexesBefore, indexesAfter] = [await indexShapes(before), await indexShapes(after)];
      const [columnsBefore, columnsAfter] = [await columnShapes(before), await columnShapes(after)];
      expect(indexesAfter).toEqual(expect.arrayContaining(indexesBefore));
      expect(columnsAfter).toEqual(expect.arrayContaining(columnsBefore));
      expect(indexesAfter.length - indexesBefore.length + columnsAfter.length - columnsBefore.length).toBe(1);
    }
    expect(await indexShapes(synthetic[0]!.table)).toEqual([]);

    // The last part added: the migrated row's every index and column (its foreign keys and status check aside).
    const last = synthetic.at(-1)!.table;
    expect(await indexShapes(last)).toEqual(await indexShapes('submissions'));
    expect(await columnShapes(last)).toEqual(await columnShapes('submissions'));

    const target = { callers: 1, run: (sql: string, params: unknown[]) => run(sql, params), cpuMicros: () => null };
    for (const variant of variants) {
      const insert = rowInserters(variant, form.id, target);
      await insert.single();
      await insert.grouped();
    }
    for (const variant of structural) {
      const [counted] = await run<{ rows: number; searchable: number }>(
        `select count(*)::int as rows, count(*) filter (where to_jsonb(t) ->> 'search_text' like '%lovelace%')::int as searchable
         from "${variant.table}" t`,
      );
      const times = variant.table === 'bench_row_0' || variant.table === 'submissions' ? 3 : 1;
      const hasSearchText = (await columnShapes(variant.table)).some((column) => column.includes('"search_text"'));
      expect(counted).toEqual({
        rows: times * (1 + GROUP_ROWS),
        searchable: hasSearchText ? times * (1 + GROUP_ROWS) : 0,
      });
    }
  });

  it('makes bodies of about 2 and 10 KB beside the plain one', () => {
    expect(Buffer.byteLength(bodyOf('plain'))).toBeLessThan(600);
    expect(Buffer.byteLength(bodyOf('2 KB'))).toBe(2_048);
    expect(Buffer.byteLength(bodyOf('10 KB'))).toBe(10_240);
  });
});
