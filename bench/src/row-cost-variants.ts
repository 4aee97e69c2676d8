// The submission row taken apart for the row-cost step (row-costs.ts): a table with the row's
// columns and nothing else, then the same table with one more part at a time, in a fixed order,
// each variant keeping every part before it, up to the migrated `submissions` table itself. The
// parts are copied from the migrations (initial, spam protection, inbox state, search off the
// request path). Beside them, the former row (its search text generated and trigram-indexed in the
// row, before issue #37 moved it to the worker), for the before/after. row-cost-variants.test.ts
// holds the last synthetic variant to the migrated table's indexes, so a migration that adds one
// shows up there.
import { ceilingRow } from './insert-ceiling.js';

/** The plain body of the insert ceilings (~420 bytes of JSON), or a larger one of about that many KB. */
export type BodySize = 'plain' | '2 KB' | '10 KB';

export interface RowVariant {
  name: string;
  /** The table its rows go to: its own (`bench_row_<n>`), or `submissions` for the migrated row. */
  table: string;
  /** Statements that create the table as this variant has it; none for the migrated table. */
  ddl: string[];
  body: BodySize;
  /** The variant its marginal cost is counted from: the one before it, or the same table with the plain body. */
  baseline: string | null;
}

interface Part {
  name: string;
  ddl: (table: string) => string[];
}

// The row's columns as the migrations leave them.
const columns = (table: string) => [
  `create table "${table}" ("id" uuid not null, "form_id" uuid not null, "data" jsonb not null, ` +
    `"created_at" timestamptz not null, "idempotency_key" varchar(255) null, ` +
    `"spam" boolean not null default false, "spam_reason" varchar(32) null, "content_hash" varchar(64) null, ` +
    `"sanitized_fields" jsonb not null default '[]', "receipt" text null, ` +
    `"status" varchar(16) not null default 'new', "assignee_id" uuid null)`,
];

const index = (name: string, columnList: string): Part => ({
  name: `+ index ${name}`,
  ddl: (table) => [`create index "${table}_${name.replace(/\W+/g, '_')}" on "${table}" (${columnList})`],
});

export const SEARCH_QUEUE_PART = '+ search queue row (statement trigger, submission_search_pending)';

/** In the order they are added; each variant has the columns and the parts up to its own. */
export const ROW_PARTS: readonly Part[] = [
  { name: 'primary key (id)', ddl: (table) => [`alter table "${table}" add primary key ("id")`] },
  index('form, created_at, id', '"form_id", "created_at", "id"'),
  index('form, spam, created_at, id', '"form_id", "spam", "created_at", "id"'),
  index('form, content_hash, created_at', '"form_id", "content_hash", "created_at"'),
  index('spam, created_at', '"spam", "created_at"'),
  index('form, spam, status', '"form_id", "spam", "status"'),
  {
    name: '+ unique (form, idempotency_key)',
    ddl: (table) => [
      `alter table "${table}" add constraint "${table}_form_idempotency_key_unique" unique ("form_id", "idempotency_key")`,
    ],
  },
  {
    // The one part the search text left on the request path (Migration20261201100000): a statement
    // trigger queueing the new ids for the worker.
    name: SEARCH_QUEUE_PART,
    ddl: (table) => [
      `create table "${table}_search_pending" ("submission_id" uuid not null primary key, "form_id" uuid not null)`,
      `create function "${table}_queue_search"() returns trigger language plpgsql as $$ begin ` +
        `insert into "${table}_search_pending" ("submission_id", "form_id") select "id", "form_id" from "inserted_rows"; ` +
        `return null; end; $$`,
      `create trigger "${table}_queue_search" after insert on "${table}" referencing new table as "inserted_rows" ` +
        `for each statement execute function "${table}_queue_search"()`,
    ],
  },
];

// The former row's search parts, added to the row without the queue (the unique key's variant).
export const FORMER_PARTS: readonly Part[] = [
  {
    name: 'former: + generated search_text',
    ddl: (table) => [
      `alter table "${table}" add "search_text" text generated always as (public.intake_submission_search_text("data")) stored`,
    ],
  },
  {
    name: 'former: + trigram GIN index on search_text',
    ddl: (table) => [`create index "${table}_search_text_trgm" on "${table}" using gin ("search_text" gin_trgm_ops)`],
  },
];

/** The migrated table: the parts above, its foreign keys (form, assignee) and the status check. */
export const MIGRATED_ROW = 'submissions as migrated (+ foreign keys, status check)';

export const BARE_ROW = 'bare: the columns, no index';

/**
 * The bare table and each part added in turn, the migrated table, the former row's search parts, then
 * the larger bodies on the bare, the migrated and the former row.
 */
export function rowCostVariants(): RowVariant[] {
  const structural: RowVariant[] = [
    { name: BARE_ROW, table: 'bench_row_0', ddl: columns('bench_row_0'), body: 'plain', baseline: null },
  ];
  ROW_PARTS.forEach((part, position) => {
    const table = `bench_row_${position + 1}`;
    structural.push({
      name: part.name,
      table,
      ddl: [...columns(table), ...ROW_PARTS.slice(0, position + 1).flatMap((added) => added.ddl(table))],
      body: 'plain',
      baseline: structural[structural.length - 1]!.name,
    });
  });
  structural.push({
    name: MIGRATED_ROW,
    table: 'submissions',
    ddl: [],
    body: 'plain',
    baseline: structural.at(-1)!.name,
  });
  // The former row: the parts up to the unique key (the queue left out), then its search parts.
  const withoutQueue = ROW_PARTS.filter((part) => part.name !== SEARCH_QUEUE_PART);
  const former: RowVariant[] = [];
  FORMER_PARTS.forEach((part, position) => {
    const table = `bench_former_row_${position + 1}`;
    former.push({
      name: part.name,
      table,
      ddl: [
        ...columns(table),
        ...withoutQueue.flatMap((added) => added.ddl(table)),
        ...FORMER_PARTS.slice(0, position + 1).flatMap((added) => added.ddl(table)),
      ],
      body: 'plain',
      baseline: former.at(-1)?.name ?? withoutQueue.at(-1)!.name,
    });
  });
  const larger = (of: RowVariant, body: BodySize): RowVariant => ({
    ...of,
    name: `${of.name}, ${body} body`,
    ddl: [],
    body,
    baseline: of.name,
  });
  const bare = structural[0]!;
  const migrated = structural.at(-1)!;
  const formerRow = former.at(-1)!;
  return [
    ...structural,
    ...former,
    larger(bare, '2 KB'),
    larger(bare, '10 KB'),
    larger(migrated, '2 KB'),
    larger(migrated, '10 KB'),
    larger(formerRow, '2 KB'),
    larger(formerRow, '10 KB'),
  ];
}

// Made-up words from syllables, so a larger body has about as many distinct trigrams as prose of its
// size (the trigram index's cost grows with them; a repeated sentence would have few): 636 in the
// 2 KB message and 1,386 in the 10 KB one, where 10 KB of docs/performance.md has about 1,320
// (pg_trgm's show_trgm). Seeded: every run inserts the same text.
const SYLLABLES = [
  'ka',
  'lo',
  'ren',
  'ti',
  'mas',
  'ver',
  'du',
  'plo',
  'an',
  'es',
  'gri',
  'tho',
  'me',
  'sun',
  'bri',
  'co',
  'la',
  'nes',
  'vo',
  'par',
  'qui',
  'ho',
  'st',
  'ze',
  'ri',
  'mon',
  'al',
  'fe',
  'gu',
  'wy',
  'en',
  'tra',
  'ob',
  'ly',
  'ic',
  'sha',
  'pe',
  'dro',
  'ux',
  'in',
  'or',
  'be',
  'ck',
  'ja',
  'ei',
];

function madeUpText(bytes: number): string {
  // mulberry32: the low bits of a plain LCG repeat too soon and give too few distinct words.
  let seed = 37;
  const next = (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
  const words: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = Array.from({ length: 1 + next(3) }, () => SYLLABLES[next(SYLLABLES.length)]).join('');
    const written = next(12) === 0 ? `${word}.` : word;
    words.push(written);
    length += written.length + 1;
  }
  // ASCII only: as many bytes as characters.
  return words.join(' ').slice(0, bytes);
}

/** The `data` document of a body size, as JSON text. */
export function bodyOf(size: BodySize): string {
  if (size === 'plain') {
    return ceilingRow();
  }
  const plain = JSON.parse(ceilingRow()) as Record<string, string>;
  const target = size === '2 KB' ? 2_048 : 10_240;
  const message = madeUpText(target - Buffer.byteLength(JSON.stringify({ ...plain, message: '' })));
  return JSON.stringify({ ...plain, message });
}
