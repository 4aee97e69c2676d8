// The row-cost step's variants (row-cost-variants.ts) on the test database: each one's DDL is valid,
// each adds exactly one part to its baseline, and the last of the chain has the migrated
// `submissions` table's columns, indexes and search queue trigger, so the step measures the row
// Intake really writes. One row and one group go into every variant through the step's own
// statements; the queue's rows and the former row's search text are there after. Nothing is timed.
import { jest } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@intake/shared/test';
import { createBenchForm } from './bench-form.js';
import { BARE_ROW, bodyOf, FORMER_PARTS, MIGRATED_ROW, ROW_PARTS, rowCostVariants } from './row-cost-variants.js';
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

/** The table's own triggers (not the foreign keys' internal ones), by name with the table's name left out. */
async function triggerShapes(table: string): Promise<string[]> {
  const rows = await run<{ name: string }>(
    `select replace(tgname, $1, '') as name from pg_trigger where tgrelid = $1::regclass and not tgisinternal order by 1`,
    [table],
  );
  return rows.map((row) => row.name);
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
      ...FORMER_PARTS.map((part) => part.name),
    ]);
    for (const statement of variants.flatMap((variant) => variant.ddl)) {
      await run(statement);
    }

    // Each variant: its baseline, and one more index, column or trigger.
    const synthetic = structural.filter((variant) => variant.table !== 'submissions');
    const tableOf = (name: string) => structural.find((variant) => variant.name === name)!.table;
    for (const variant of synthetic.filter((candidate) => candidate.baseline !== null)) {
      const [before, after] = [tableOf(variant.baseline!), variant.table];
      const shapes = async (table: string) => [
        ...(await indexShapes(table)),
        ...(await columnShapes(table)),
        ...(await triggerShapes(table)),
      ];
      const [shapesBefore, shapesAfter] = [await shapes(before), await shapes(after)];
      expect(shapesAfter).toEqual(expect.arrayContaining(shapesBefore));
      expect({ variant: variant.name, added: shapesAfter.length - shapesBefore.length }).toEqual({
        variant: variant.name,
        added: 1,
      });
    }
    expect(await indexShapes(synthetic[0]!.table)).toEqual([]);

    // The last part of the chain: the migrated row's every index and column (its foreign keys and
    // status check aside), and its search queue trigger.
    const last = structural[ROW_PARTS.length]!.table;
    expect(await indexShapes(last)).toEqual(await indexShapes('submissions'));
    expect(await columnShapes(last)).toEqual(await columnShapes('submissions'));
    expect(await triggerShapes(last)).toEqual(['_queue_search']);
    expect(await triggerShapes('submissions')).toContain('_queue_search');

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
      const times = ['bench_row_0', 'submissions', 'bench_former_row_2'].includes(variant.table) ? 3 : 1;
      const hasSearchText = (await columnShapes(variant.table)).some((column) => column.includes('"search_text"'));
      expect(counted).toEqual({
        rows: times * (1 + GROUP_ROWS),
        searchable: hasSearchText ? times * (1 + GROUP_ROWS) : 0,
      });
      if ((await triggerShapes(variant.table)).includes('_queue_search')) {
        const queue = variant.table === 'submissions' ? 'submission_search_pending' : `${variant.table}_search_pending`;
        const [queued] = await run<{ rows: number }>(`select count(*)::int as rows from "${queue}"`);
        expect(queued!.rows).toBe(times * (1 + GROUP_ROWS));
      }
    }
  });

  it('makes bodies of about 2 and 10 KB beside the plain one', () => {
    expect(Buffer.byteLength(bodyOf('plain'))).toBeLessThan(600);
    expect(Buffer.byteLength(bodyOf('2 KB'))).toBe(2_048);
    expect(Buffer.byteLength(bodyOf('10 KB'))).toBe(10_240);
  });
});
