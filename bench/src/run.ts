// `npm run bench`: every benchmark in one run on one machine. Prints tables and writes
// bench/results.json at the root. Settings come from the environment (BENCH_SECONDS, BENCH_ONLY,
// BENCH_DATABASE_URL and the others read below, with their defaults; BENCH_DATA_SUBMISSIONS and
// BENCH_EXPORT_EXEC_ARGV in the data part; BENCH_ROW_COSTS_* in the row-cost part): what each one
// does is in docs/performance.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { measureFixedCosts } from './fixed-costs.js';
import { measureIntakeInserts } from './intake-insert.js';
import { measureUploadCostsApart } from './upload-costs.js';
import { measureGatewayProcesses } from './gateway-processes.js';
import { benchInspection, type InspectionFigure } from './inspection.js';
import { LOAD_GENERATOR } from './load.js';
import { describeRun, printRequestPath, printSanitiserSplit, type RequestPathResults } from './report.js';
import { measureProcessTargets, quickStartOnPglite, quickStartTargets, type ProcessTarget } from './process-memory.js';
import { measureCeilings, measureIntake, measureSoak, type BenchSettings } from './request-path.js';
import { measureRowCosts, printRowCosts, type RowCostResults } from './row-costs.js';
import { measureSanitiserCostApart, sanitiserTarget, type SanitiserFigure } from './sanitiser-cost.js';
import { createScratchDatabase } from './scratch-postgres.js';
import { measureExports, printExportResults, type ExportFigure } from './submissions-export.js';
import {
  measureFilteredPages,
  measureStatusCounts,
  printDataResults,
  seedSubmissions,
  withAdminApi,
  type DataResults,
} from './submissions-data.js';

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a non-negative number`);
  }
  return value;
}

const settings: BenchSettings = {
  seconds: numberFrom('BENCH_SECONDS', 8),
  warmupSeconds: numberFrom('BENCH_WARMUP_SECONDS', 2),
  connections: numberFrom('BENCH_CONNECTIONS', 20),
  soakSubmissions: numberFrom('BENCH_SOAK', 100_000),
  cpuProfileDir: process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined,
};
const dataSubmissions = numberFrom('BENCH_DATA_SUBMISSIONS', 1_000_000);
const only = process.env.BENCH_ONLY ?? '';
const serverUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const progress = (step: string) => process.stderr.write(`bench: ${step}\n`);

let inspection: InspectionFigure[] = [];
if (only === '' || only === 'inspection') {
  progress('archive inspection');
  inspection = await benchInspection();
  console.log('Archive inspection (median of 5 runs)');
  console.table(
    inspection.map((figure) => ({
      case: figure.name,
      'median ms': figure.medianMs.toFixed(1),
      outcome: figure.outcome,
      'MB/s': figure.mbPerSecond?.toFixed(0) ?? '',
      target: figure.target,
      met: figure.met ? 'yes' : 'NO',
    })),
  );
}

let quickStart: ProcessTarget[] = [];
if (only === 'start') {
  progress('npm start on PGlite: first start, then restart');
  quickStart = quickStartTargets(await quickStartOnPglite());
  console.log('npm start on the embedded PGlite');
  console.table(
    quickStart.map(({ case: name, measured, target, met }) => ({
      case: name,
      measured,
      target,
      met: met ? 'yes' : 'NO',
    })),
  );
}

let sanitiser: SanitiserFigure | undefined;
if (only === 'sanitiser') {
  progress('sanitiser CPU per HTML form, in a fresh process');
  sanitiser = await measureSanitiserCostApart(3);
  printSanitiserSplit(sanitiser);
  console.table(
    [sanitiserTarget(sanitiser)].map(({ case: name, measured, target, met }) => ({
      case: name,
      measured,
      target,
      met: met ? 'yes' : 'NO',
    })),
  );
}

let requestPath: RequestPathResults | undefined;
if (only === '' || only === 'requests') {
  const scratch = await createScratchDatabase(serverUrl);
  try {
    const ceilings = await measureCeilings(settings, scratch.url, progress);
    const intake = [
      ...(await measureIntake('postgresql', scratch.url, ceilings, settings, progress)),
      ...(await measureIntake('pglite', '', ceilings, settings, progress)),
    ];
    const soak = settings.soakSubmissions > 0 ? await measureSoak('postgresql', scratch.url, settings, progress) : null;
    const gatewayProcesses = await measureGatewayProcesses(scratch.url, settings, progress);
    progress('sanitiser CPU per HTML form, in a fresh process');
    const sanitiserFigure = await measureSanitiserCostApart(3);
    const processes = [sanitiserTarget(sanitiserFigure), ...(await measureProcessTargets(scratch.url, progress))];
    progress('fixed costs of a plain submission: token check, access line');
    const fixedCosts = await measureFixedCosts(3);
    progress('what a checked, durable upload adds: file checks, sha256, fsync and rename (PNG, 10 MB PDF)');
    const uploadCosts = await measureUploadCostsApart(3);
    progress("Intake's own INSERT, timed apart, on PostgreSQL and PGlite");
    const intakeInserts = await measureIntakeInserts(serverUrl, settings);
    const autocannonVersion = (createRequire(import.meta.url)('autocannon/package.json') as { version: string })
      .version;
    requestPath = {
      run: describeRun({
        settings,
        loadGenerator: `${LOAD_GENERATOR} ${autocannonVersion}`,
        postgres: scratch.description,
      }),
      ceilings,
      intake,
      soak,
      processes,
      sanitiser: sanitiserFigure,
      fixedCosts,
      uploadCosts,
      intakeInserts,
      gatewayProcesses,
    };
    printRequestPath(requestPath);
  } finally {
    await scratch.drop();
  }
}

// What each part of the submission row costs on insert: about 1.5 minutes with the defaults.
let rowCosts: RowCostResults | undefined;
if (only === '' || only === 'row-costs') {
  rowCosts = await measureRowCosts(
    serverUrl,
    {
      seconds: numberFrom('BENCH_ROW_COSTS_SECONDS', 0.4),
      warmupSeconds: numberFrom('BENCH_ROW_COSTS_WARMUP_SECONDS', 0.25),
      rounds: Math.max(1, Math.round(numberFrom('BENCH_ROW_COSTS_ROUNDS', 3))),
    },
    progress,
  );
  printRowCosts(rowCosts);
}

let data: (DataResults & { exports: ExportFigure[] }) | undefined;
if (only === '' || only === 'data') {
  const scratch = await createScratchDatabase(serverUrl);
  try {
    data = await withAdminApi(scratch.url, async (gql) => {
      progress(`data: seeding ${dataSubmissions.toLocaleString('en')} submissions of one form`);
      const seeded = await seedSubmissions(scratch.url, dataSubmissions);
      progress('data: filtered first pages through the admin API');
      const queries = await measureFilteredPages(gql, seeded.formId, 7);
      const statusCountsMs = await measureStatusCounts(gql, seeded.formId, 7);
      const exports = await measureExports(scratch.url, seeded.formId, progress);
      return { database: scratch.description, seeded, queries, statusCountsMs, exports };
    });
    printDataResults(data);
    printExportResults(data.exports);
  } finally {
    await scratch.drop();
  }
}

const resultsDir = path.resolve('bench');
await mkdir(resultsDir, { recursive: true });
await writeFile(
  path.join(resultsDir, 'results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
      inspection,
      ...(only === 'start' ? { quickStart } : {}),
      ...(sanitiser ? { sanitiser } : {}),
      ...(requestPath ?? {}),
      ...(rowCosts ? { rowCosts } : {}),
      ...(data ? { data } : {}),
    },
    null,
    2,
  )}\n`,
);
const met = [
  ...inspection.map((figure) => figure.met),
  ...quickStart.map((figure) => figure.met),
  ...(sanitiser ? [sanitiserTarget(sanitiser).met] : []),
  ...(requestPath?.intake.map((figure) => figure.met !== false) ?? []),
  requestPath?.soak?.met ?? true,
  ...(data?.queries.map((figure) => figure.met) ?? []),
  ...(data?.exports.map((figure) => figure.met) ?? []),
  ...(requestPath?.processes.map((figure) => figure.met) ?? []),
];
process.exitCode = met.every(Boolean) ? 0 : 1;
