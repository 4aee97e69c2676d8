// The data part of the bench (BENCH_ONLY=data): one form with BENCH_DATA_SUBMISSIONS (1,000,000)
// submissions in the scratch PostgreSQL database, then the console's reads of it through the real
// admin API over HTTP: a first page of 50, its count up to 1,000 and its exact count, unfiltered and
// filtered, and the counts per status; medians of runs.
//
// The seeding is reusable (`seedSubmissions`, `withAdminApi`): other measurements of big forms
// (the export) run against the same data.
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { parseConfig } from '@intake/shared/config';
import { migrate, openDatabase, type Database } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { createServices } from '@intake/shared/services';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchAdmin, signedInGql, type Gql } from './admin-client.js';

export const DATA_TARGET_MS = 100;
const PAGE_SIZE = 50;

export interface SeededForm {
  formId: string;
  submissions: number;
  /** Submissions with one stored file each (every 20th). */
  withFiles: number;
  seedSeconds: number;
}

export interface DataQueryFigure {
  name: string;
  filter: Record<string, unknown> | null;
  /** totalCount the query answered. */
  matches: number;
  /** The first page alone (what the console shows first): the figure with the target. */
  medianMs: number;
  maxMs: number;
  /** `countUpTo` (1,000) alone, asked apart as the console does: the count with the target. */
  countUpToMedianMs: number;
  /** totalCount alone: exact, so it grows with the matches (a reference, what Count all costs). */
  exactCountMedianMs: number;
  runs: number;
  target: string;
  met: boolean;
}

export interface DataResults {
  database: string;
  seeded: SeededForm;
  queries: DataQueryFigure[];
  /** `submissionCounts` of the form (the line above the inbox), median ms. */
  statusCountsMs: number;
}

// Values cycle through lists of coprime lengths, so combinations vary across the million rows.
const FIRST_NAMES = [
  'Élodie',
  'Zoé',
  'Jürgen',
  'François',
  'Ana',
  'Björn',
  'Łukasz',
  'Chloé',
  'Mohammed',
  'Noémie',
  'Søren',
  'José',
  'Inès',
  'Ada',
  'Grace',
  'Hélène',
  'Mateo',
  'Yuki',
  'Olivia',
  'Raphaël',
  'Amélie',
  'Kofi',
  'Léa',
  'Nikolaï',
  'Priya',
  'Thomas',
  'Émile',
  'Greta',
  'Ömer',
  'Camille',
  'Lucía',
  'Hannah',
  'Jérôme',
  'Aoife',
  'Marek',
  'Siobhán',
  'Dmitri',
  'Fatima',
  'Gaël',
  'Ingrid',
  'Karim',
  'Maëlle',
  'Nils',
  'Renée',
  'Tariq',
  'Valérie',
  'Wen',
];
const LAST_NAMES = [
  'Dupont',
  'Martin',
  'Müller',
  'García',
  'Nowak',
  'Rossi',
  'Andersson',
  'Kowalski',
  'Lefèvre',
  'Moreau',
  'Schmidt',
  'Fernández',
  'Novák',
  'Jensen',
  'Bernard',
  'Dubois',
  'Fischer',
  'López',
  'Yılmaz',
  'Nielsen',
  'Petit',
  'Roux',
  'Weber',
  'Sánchez',
  'Horváth',
  'Virtanen',
  'Laurent',
  'Fontaine',
  'Schäfer',
  'Pérez',
  'Costa',
  'Silva',
  'Ivanov',
  'Öztürk',
  'Lambert',
  'Girard',
  'Wagner',
  'Romero',
  'Kovačević',
  'Berg',
  'Mercier',
  'Blanc',
  'Becker',
  'Torres',
  'Popescu',
  'Hansen',
  'Chevalier',
  'Garnier',
  'Hoffmann',
  'Díaz',
  'Lindqvist',
  'Faure',
  'Brunet',
];
const CITIES = [
  'Paris',
  'Zürich',
  'München',
  'Kraków',
  'São Paulo',
  'Malmö',
  'Genève',
  'Bruxelles',
  'Köln',
  'Łódź',
  'Montréal',
  'Reykjavík',
  'Besançon',
  'Göteborg',
  'Córdoba',
  'Nîmes',
  'Wien',
  'Lyon',
  'Porto',
  'Oslo',
  'Düsseldorf',
  'Valparaíso',
  'Trondheim',
  'Aix-en-Provence',
  'Bordeaux',
  'Tromsø',
  'Cádiz',
  'Brno',
  'Québec',
  'Thessaloníki',
  'Århus',
];
const MESSAGES = [
  'Bonjour, je voudrais un devis pour la rénovation de ma cuisine &amp; salle de bains.',
  'Hello, could you call me back about the order I placed last week? Thanks!',
  'Guten Tag, ich habe eine Frage zur Lieferung nach Österreich.',
  'Is the workshop on Saturday still open? We are a group of 4 &lt; 6 people.',
  'Merci pour votre réponse rapide, tout est réglé.',
  'Please remove my address from your newsletter.',
  'Hola, ¿tienen disponibilidad para el próximo mes?',
  'The invoice total looks wrong: 120 € instead of 100 €.',
  'Can I change the delivery date to Friday morning?',
  'Je souhaite annuler ma réservation du 12 décembre.',
  'Our company would like to discuss a partnership.',
  'Le formulaire ne fonctionne pas sur mon téléphone.',
  'I attached the signed contract, see the file.',
];
const TOPICS = ['devis', 'support', 'facturation', 'partenariat', 'presse', 'recrutement', 'autre'];

// The name that appears in one submission in 10,000: the selective text search.
const RARE_NAME = 'Quintanilla';

const sqlArray = (values: readonly string[]) =>
  `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]`;
const pick = (values: readonly string[], index: string) => `(${sqlArray(values)})[1 + (${index}) % ${values.length}]`;

/**
 * Seeds `count` submissions of one new form (ids `md5('bench-' || n)`, one a minute back from now,
 * every 20th with a stored file row) in one INSERT … SELECT, then their search rows from the queue
 * their INSERT filled, in one more (what the worker does in batches), emptying it. The secondary
 * indexes of both tables are dropped during the inserts and rebuilt from their own definitions after
 * them (much faster than maintaining them row by row), then the tables are analysed.
 */
export async function seedSubmissions(databaseUrl: string, count: number): Promise<SeededForm> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const site = await client.query<{ id: string }>(
      `insert into sites (id, name, control_code, created_at, updated_at)
       values (gen_random_uuid(), 'Bench', md5(random()::text), now(), now()) returning id`,
    );
    const form = await client.query<{ id: string }>(
      `insert into forms (id, site_id, name, code, created_at, updated_at)
       values (gen_random_uuid(), $1, 'Contact', md5(random()::text), now(), now()) returning id`,
      [site.rows[0]!.id],
    );
    const formId = form.rows[0]!.id;
    const indexes = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.tablename in ('submissions', 'submission_search') and i.schemaname = current_schema()
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const index of indexes.rows) {
      await client.query(`drop index "${index.name}"`);
    }
    const first = pick(FIRST_NAMES, 'n');
    const last = `case when n % 10000 = 0 then '${RARE_NAME}' else ${pick(LAST_NAMES, 'n / 7')} end`;
    await client.query(
      `insert into submissions (id, form_id, data, created_at)
       select md5('bench-' || n)::uuid, $1,
         jsonb_build_object(
           'name', ${first} || ' ' || ${last},
           'email', lower(${pick(LAST_NAMES, 'n / 7')}) || '.' || n || '@example.com',
           'phone', '+33 6 ' || lpad((n % 100000000)::text, 8, '0'),
           'message', ${pick(MESSAGES, 'n / 3')},
           'address', jsonb_build_object('city', ${pick(CITIES, 'n / 11')}, 'zip', lpad((n % 99999)::text, 5, '0')),
           'topics', jsonb_build_array(${pick(TOPICS, 'n')}, ${pick(TOPICS, 'n / 5')}),
           'consent', n % 2 = 0,
           'quantity', n % 12
         ),
         now() - n * interval '1 minute'
       from generate_series(1, $2::int) as n`,
      [formId, count],
    );
    await client.query(
      `insert into submission_search (submission_id, form_id, search_text, created_at)
       select s.id, s.form_id, coalesce(public.intake_submission_search_text(s.data), ''), s.created_at
       from submission_search_pending p join submissions s on s.id = p.submission_id where p.form_id = $1`,
      [formId],
    );
    await client.query('delete from submission_search_pending where form_id = $1', [formId]);
    const files = await client.query(
      `insert into stored_files (id, submission_id, position, field, name, mime_type, size, sha256, storage_key, created_at)
       select gen_random_uuid(), md5('bench-' || n)::uuid, 0, 'attachment', 'document-' || n || '.pdf',
         'application/pdf', 20000 + n % 5000, md5(n::text) || md5(n::text), 'bench/' || n, now()
       from generate_series(20, $1::int, 20) as n`,
      [count],
    );
    await client.query(`set maintenance_work_mem = '256MB'`);
    for (const index of indexes.rows) {
      await client.query(index.definition);
    }
    await client.query('vacuum analyze submissions');
    await client.query('vacuum analyze stored_files');
    await client.query('vacuum analyze submission_search');
    await client.query('vacuum analyze submission_search_pending');
    return {
      formId,
      submissions: count,
      withFiles: files.rowCount ?? 0,
      seedSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.end();
  }
}

export type { Gql } from './admin-client.js';

/** The real admin API on `databaseUrl` (migrated), listening on loopback, with a signed-in client. */
export async function withAdminApi<T>(databaseUrl: string, run: (gql: Gql, db: Database) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'intake-bench-data-'));
  const admin = benchAdmin(databaseUrl, dataDir);
  const config = parseConfig(admin.env);
  const db = await openDatabase({ databaseUrl, poolSize: 5 });
  try {
    await migrate(db);
    const services = createServices(config, db, createLogger(config.logLevel));
    await ensureAdmin(services);
    const server = await startAdmin(services);
    try {
      return await run(await signedInGql(server.url, admin), db);
    } finally {
      await server.close();
    }
  } finally {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const FIRST_PAGE = `query($formId: ID!, $first: Int, $filter: SubmissionFilterInput) {
  submissions(formId: $formId, first: $first, filter: $filter) {
    edges { cursor node { id createdAt data files { id name } } } pageInfo { hasNextPage endCursor }
  }
}`;
const COUNT_UP_TO = `query($formId: ID!, $filter: SubmissionFilterInput) {
  submissions(formId: $formId, first: 0, filter: $filter) { countUpTo { count more } }
}`;
const TOTAL_COUNT = `query($formId: ID!, $filter: SubmissionFilterInput) {
  submissions(formId: $formId, first: 0, filter: $filter) { totalCount }
}`;
const STATUS_COUNTS = `query($formId: ID!) { submissionCounts(formId: $formId) { new open done archived unread } }`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `run` once unmeasured, then `runs` times: the median and the longest, in ms, and the last answer. */
async function timed<T>(runs: number, run: () => Promise<T>): Promise<{ median: number; max: number; last: T }> {
  let last = await run();
  const timings: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    last = await run();
    timings.push(performance.now() - started);
  }
  return { median: median(timings), max: Math.max(...timings), last };
}

/** The inbox's counts per status above the list (`submissionCounts`), median ms of `runs`. */
export async function measureStatusCounts(gql: Gql, formId: string, runs: number): Promise<number> {
  return (await timed(runs, () => gql(STATUS_COUNTS, { formId }))).median;
}

/**
 * Each filter's first page, then its `countUpTo` and its exact `totalCount`, each apart as the
 * console asks them, `runs` times after one unmeasured run; medians.
 */
export async function measureFilteredPages(gql: Gql, formId: string, runs: number): Promise<DataQueryFigure[]> {
  const day = 24 * 60 * 60 * 1000;
  const now = Date.now();
  const cases: { name: string; filter: Record<string, unknown> | null; target: boolean }[] = [
    { name: 'no filter (inbox)', filter: null, target: false },
    {
      name: `text, 1 in 10,000 ("${RARE_NAME.toLowerCase()}")`,
      filter: { query: RARE_NAME.toLowerCase() },
      target: true,
    },
    { name: 'text, 1 in 47 ("ELODIE")', filter: { query: 'ELODIE' }, target: true },
    { name: 'text in a nested value ("zurich")', filter: { query: 'zurich' }, target: true },
    {
      name: 'last 7 days',
      filter: { createdAfter: new Date(now - 7 * day).toISOString(), createdBefore: new Date(now).toISOString() },
      target: true,
    },
    { name: 'has files', filter: { hasFiles: true }, target: true },
    {
      name: 'text + last 30 days + has files',
      filter: { query: 'élodie', createdAfter: new Date(now - 30 * day).toISOString(), hasFiles: true },
      target: true,
    },
  ];
  const figures: DataQueryFigure[] = [];
  for (const { name, filter, target } of cases) {
    const page = await timed(runs, () => gql(FIRST_PAGE, { formId, first: PAGE_SIZE, filter }));
    const countUpTo = await timed(runs, () => gql(COUNT_UP_TO, { formId, filter }));
    const exact = await timed(runs, () =>
      gql<{ submissions: { totalCount: number } }>(TOTAL_COUNT, { formId, filter }),
    );
    figures.push({
      name,
      filter,
      matches: exact.last.submissions.totalCount,
      medianMs: page.median,
      maxMs: page.max,
      countUpToMedianMs: countUpTo.median,
      exactCountMedianMs: exact.median,
      runs,
      target: target ? `page and count < ${DATA_TARGET_MS} ms` : `count < ${DATA_TARGET_MS} ms`,
      met: (!target || page.median < DATA_TARGET_MS) && countUpTo.median < DATA_TARGET_MS,
    });
  }
  return figures;
}

export function printDataResults(results: DataResults): void {
  const { seeded } = results;
  console.log(
    `Submissions of one form (${seeded.submissions.toLocaleString('en')} rows, ` +
      `${seeded.withFiles.toLocaleString('en')} with files, seeded in ${seeded.seedSeconds.toFixed(0)} s; ` +
      `${results.database}): over HTTP, the first page of ${PAGE_SIZE}, then countUpTo and totalCount asked apart; medians`,
  );
  console.table(
    results.queries.map((figure) => ({
      filter: figure.name,
      matches: figure.matches.toLocaleString('en'),
      'page median ms': figure.medianMs.toFixed(1),
      'page max ms': figure.maxMs.toFixed(1),
      'count up to 1,000 ms': figure.countUpToMedianMs.toFixed(1),
      'exact count ms': figure.exactCountMedianMs.toFixed(1),
      target: figure.target,
      met: figure.met ? 'yes' : 'NO',
    })),
  );
  const met = results.statusCountsMs < DATA_TARGET_MS ? 'met' : 'NOT met';
  console.log(`Counts per status: ${results.statusCountsMs.toFixed(1)} ms (target < ${DATA_TARGET_MS} ms, ${met})`);
}
