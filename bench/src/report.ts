// The request-path part of the bench report: what was run against what, the ceilings, and each
// Intake figure with its ratio to its ceiling and its target.
import type { FixedCosts } from './fixed-costs.js';
import type { InsertFigure } from './insert-ceiling.js';
import type { GroupedFigure, IntakeInsertFigures } from './intake-insert.js';
import { STORE_GROUP, type UploadCost, type UploadCosts } from './upload-costs.js';
import type { ProcessCountFigure } from './gateway-processes.js';
import type { LoadFigure } from './load.js';
import type { ProcessTarget } from './process-memory.js';
import { SANITISER_TARGET_MICROS, sanitiserParts, type SanitiserFigure } from './sanitiser-cost.js';
import type { BenchSettings, Ceilings, IntakeFigure, SoakFigure } from './request-path.js';

export interface RunDescription {
  loadGenerator: string;
  target: string;
  seconds: number;
  warmupSeconds: number;
  connections: string;
  databases: { postgresql: string; pglite: string };
  soak: string;
}

export interface RequestPathResults {
  run: RunDescription;
  ceilings: Ceilings;
  intake: IntakeFigure[];
  soak: SoakFigure | null;
  processes: ProcessTarget[];
  /** The sanitiser's CPU per HTML form and its parts, timed apart in a fresh process (a row of `processes`). */
  sanitiser: SanitiserFigure;
  /** The plain case's fixed work per request, timed apart: the floor beside its CPU target. */
  fixedCosts: FixedCosts;
  /** What a checked, durable upload (the PNG, the 10 MB PDF) adds to bare multer, timed apart: their floors. */
  uploadCosts: UploadCosts;
  /** Intake's own INSERT of a plain submission, timed apart: the floor beside the throughput targets. */
  intakeInserts: IntakeInsertFigures;
  /** start:gateway with GATEWAY_PROCESSES=1 and =2, same load (no target: what two give here). */
  gatewayProcesses: ProcessCountFigure[];
}

export function describeRun(input: {
  settings: BenchSettings;
  loadGenerator: string;
  postgres: string;
}): RunDescription {
  const { settings } = input;
  return {
    loadGenerator: input.loadGenerator,
    target: 'loopback (127.0.0.1); each server under test in its own process',
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    connections: `${settings.connections} (JSON, 100 KB), 20 (10 MB uploads)`,
    databases: {
      postgresql: `${input.postgres}; gateway pool of 10`,
      pglite: 'PGlite on disk in a temporary DATA_DIR/db, inside the gateway process',
    },
    soak: `${settings.soakSubmissions} HTML-bearing JSON submissions over HTTP to the PostgreSQL gateway`,
  };
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function loadRow(name: string, figure: LoadFigure, unit: 'req/s' | 'MB/s') {
  return {
    ceiling: name,
    value: unit === 'MB/s' ? `${fixed(figure.mbPerSecond)} MB/s` : `${fixed(figure.perSecond)}/s`,
    'p50 ms': fixed(figure.p50, 1),
    'p99 ms': fixed(figure.p99, 1),
    'CPU µs/req': figure.cpuMicrosPerRequest === undefined ? '' : fixed(figure.cpuMicrosPerRequest),
    failures: figure.failures,
  };
}

function insertRow(name: string, figure: InsertFigure) {
  return {
    ceiling: name,
    value: `${fixed(figure.perSecond)}/s`,
    'p50 ms': fixed(figure.p50, 1),
    'p99 ms': fixed(figure.p99, 1),
    'CPU µs/req': fixed(figure.cpuMicrosPerInsert),
    failures: 0,
  };
}

export function printRequestPath(results: RequestPathResults): void {
  const { run, ceilings } = results;
  console.log(
    `\nRequest path — load generator: ${run.loadGenerator}, ${run.target}; ${run.seconds} s measured after ` +
      `${run.warmupSeconds} s of warm-up; connections: ${run.connections}.`,
  );
  console.log(`Databases: ${run.databases.postgresql}. ${run.databases.pglite}.`);
  console.log('\nCeilings (same machine, same run)');
  console.table([
    loadRow('bare Koa, JSON body → 201', ceilings.koaJson, 'req/s'),
    loadRow('bare @koa/multer to disk, 100 KB PNG', ceilings.multerPng, 'req/s'),
    {
      ...loadRow('bare @koa/multer to disk, 20 × 10 MB PDF', ceilings.multerPdf, 'MB/s'),
      'RSS MB (start → peak)': `${fixed(ceilings.multerPdf.startRssMb)} → ${fixed(ceilings.multerPdf.peakRssMb)}`,
    },
    loadRow('the same 100 KB PNG, files kept (not a ceiling: a floor part)', ceilings.multerPngKept, 'req/s'),
    loadRow('the same 20 × 10 MB PDF, files kept (not a ceiling: a floor part)', ceilings.multerPdfKept, 'MB/s'),
    insertRow(`raw pg insert, ${ceilings.postgresInsert.rowBytes} B jsonb, pool of 10`, ceilings.postgresInsert),
    insertRow(`raw PGlite insert, ${ceilings.pgliteInsert.rowBytes} B jsonb, in process`, ceilings.pgliteInsert),
  ]);
  console.log('Intake');
  console.table(
    results.intake.map((figure) => ({
      database: figure.database,
      case: figure.case,
      value: figure.mbPerSecond !== undefined ? `${fixed(figure.mbPerSecond)} MB/s` : `${fixed(figure.perSecond)}/s`,
      'p50 ms': fixed(figure.p50, 1),
      'p99 ms': fixed(figure.p99, 1),
      'lone p50 / p99 ms': figure.lone ? `${fixed(figure.lone.p50, 2)} / ${fixed(figure.lone.p99, 2)}` : '',
      'RSS MB (start → peak)':
        figure.peakRssMb === undefined ? '' : `${fixed(figure.startRssMb ?? 0)} → ${fixed(figure.peakRssMb)}`,
      ceiling: `${figure.ceiling} ${fixed(figure.ceilingValue)}`,
      ratio: `${fixed(figure.ratio * 100)} %`,
      'CPU µs/req': fixed(figure.cpuMicrosPerRequest),
      'CPU × ceiling':
        figure.ceilingCpuMicrosPerRequest === undefined || figure.ceilingCpuMicrosPerRequest === 0
          ? ''
          : `${fixed(figure.cpuMicrosPerRequest / figure.ceilingCpuMicrosPerRequest, 1)} ×`,
      failures: figure.failures,
      target: figure.target,
      met: figure.met === null ? '' : figure.met ? 'yes' : 'NO',
    })),
  );
  printStages(results);
  printPlainJsonFloor(results);
  printThroughputFloor(results);
  printPngFloor(results);
  printPdfFloor(results);
  printSanitiserSplit(results.sanitiser);
  const soak = results.soak;
  if (soak) {
    console.log(`RSS soak (${run.soak})`);
    console.table([
      {
        submissions: soak.submissions,
        '/s': fixed(soak.perSecond),
        'RSS at 10 % MB': fixed(soak.baselineRssMb),
        'max RSS after MB': fixed(soak.maxRssMb),
        'heap after GC MB': `${fixed(soak.baselineHeapMb)} → ${fixed(soak.finalHeapMb)}`,
        growth: `${fixed((soak.growth - 1) * 100, 1)} %`,
        failures: soak.failures,
        target: soak.target,
        met: soak.met ? 'yes' : 'NO',
      },
    ]);
  }
  console.log('GATEWAY_PROCESSES (start:gateway on PostgreSQL, JSON with 3 plain fields; CPU of all processes)');
  const [one] = results.gatewayProcesses;
  console.table(
    results.gatewayProcesses.map((figure) => ({
      processes: figure.processes,
      '/s': fixed(figure.perSecond),
      'vs 1 process': one && one.perSecond > 0 ? `${fixed((figure.perSecond / one.perSecond) * 100)} %` : '',
      'p50 ms': fixed(figure.p50),
      'p99 ms': fixed(figure.p99),
      'CPU µs/req': fixed(figure.cpuMicrosPerRequest),
      failures: figure.failures,
    })),
  );
  console.log('Processes');
  console.table(
    results.processes.map((figure) => ({
      case: figure.case,
      measured: figure.measured,
      target: figure.target,
      met: figure.met ? 'yes' : 'NO',
    })),
  );
}

/**
 * Each profiled case's CPU per request split into its stages (request-stages.ts): the main
 * thread's CPU by the profile's samples, the other threads as one row; the rows add up to the
 * measured CPU per request of the Intake table.
 */
function printStages(results: RequestPathResults): void {
  const cases = results.intake.filter((figure) => figure.stages !== undefined);
  if (cases.length === 0) {
    return;
  }
  const column = (figure: IntakeFigure, micros: number) =>
    `${fixed(micros, 1)} (${fixed(figure.stages!.totalMicros > 0 ? (micros / figure.stages!.totalMicros) * 100 : 0)} %)`;
  const stageNames = cases[0]!.stages!.perRequest.map((row) => row.stage);
  const rows = [
    ...stageNames.map((stage) => ({
      stage,
      ...Object.fromEntries(
        cases.map((figure) => [
          figure.case,
          column(figure, figure.stages!.perRequest.find((row) => row.stage === stage)?.micros ?? 0),
        ]),
      ),
    })),
    {
      stage: "other threads: V8's GC and compiler helpers, libuv's pool (file system calls)",
      ...Object.fromEntries(cases.map((figure) => [figure.case, column(figure, figure.stages!.otherThreadsMicros)])),
    },
    {
      stage: 'total: CPU µs/req of the Intake table',
      ...Object.fromEntries(cases.map((figure) => [figure.case, column(figure, figure.stages!.totalMicros)])),
    },
  ];
  console.log(
    "Where each request's CPU goes (PostgreSQL; µs per request and share; main thread split by a CPU profile " +
      'of the same load, taken after the measured run; see docs/performance.md)',
  );
  console.table(rows);
  for (const figure of cases) {
    const files = figure.stages!.otherFiles.map(({ file, micros }) => `${file} ${fixed(micros, 1)}`).join(', ');
    if (files !== '') {
      console.log(`  other, ${figure.case}: ${files}`);
    }
  }
}

interface FloorPart {
  part: string;
  micros: number;
}

/** A CPU target beside the work no such request can skip, each part measured apart in this run. */
function printCpuFloor(
  title: string,
  parts: FloorPart[],
  target: FloorPart,
  measured: FloorPart[],
  sum = 'floor: the sum',
  unit = 'request',
): void {
  const floor = parts.reduce((total, part) => total + part.micros, 0);
  console.log(`${title} (CPU µs per ${unit}, each part measured apart in this run)`);
  console.table(
    [...parts, { part: sum, micros: floor }, target, ...measured].map((row) => ({
      part: row.part,
      'CPU µs': fixed(row.micros, 1),
    })),
  );
}

function intakeCase(results: RequestPathResults, name: string, database = 'postgresql'): IntakeFigure | undefined {
  return results.intake.find((figure) => figure.database === database && figure.case === name);
}

/** The work every accepted submission does beyond its body: token, receipt, insert, access line. */
function submissionParts(results: RequestPathResults): FloorPart[] {
  const { tokenCheckMicros, receiptMicros, accessLineMicros } = results.fixedCosts;
  return [
    { part: 'site token check, a token seen before (sha256, lookup)', micros: tokenCheckMicros },
    { part: 'signed receipt (claims, Ed25519; all threads)', micros: receiptMicros },
    { part: 'pg client, one insert', micros: results.ceilings.postgresInsert.cpuMicrosPerInsert },
    { part: 'one access line', micros: accessLineMicros },
  ];
}

/**
 * The plain JSON case's target is a multiple of bare Koa's CPU per request. Its floor: what bare
 * Koa does, and the work of every accepted submission (submissionParts).
 */
function printPlainJsonFloor(results: RequestPathResults): void {
  const koa = results.ceilings.koaJson.cpuMicrosPerRequest ?? 0;
  const plain = intakeCase(results, 'JSON, 3 plain fields');
  printCpuFloor(
    'Floor of the plain JSON case',
    [{ part: 'bare Koa: read a JSON body, answer 201', micros: koa }, ...submissionParts(results)],
    { part: 'target: 4 × bare Koa', micros: 4 * koa },
    plain ? [{ part: 'Intake, JSON with 3 plain fields (PostgreSQL)', micros: plain.cpuMicrosPerRequest }] : [],
  );
}

/**
 * What a checked, durable upload adds to bare multer, each part timed apart (upload-costs.ts), and
 * what keeping the file costs the kernel (bare multer keeping its files, less bare multer).
 */
function uploadParts(multer: LoadFigure, kept: LoadFigure, cost: UploadCost): FloorPart[] {
  const multerMicros = multer.cpuMicrosPerRequest ?? 0;
  return [
    { part: 'bare multer: receive the body, write the file', micros: multerMicros },
    {
      part: 'keeping the file: fresh page-cache pages (bare multer keeping its files, less bare multer)',
      micros: Math.max(0, (kept.cpuMicrosPerRequest ?? 0) - multerMicros),
    },
    { part: 'single pass as it streams in: sha256, archive signatures, UTF-8', micros: cost.streamedPassMicros },
    { part: 'file checks after it: type from the head, the tail for a zip', micros: cost.fileChecksMicros },
    {
      part: `durable in storage: rename, fsync in groups of ${STORE_GROUP} (alone: ${cost.durableStoreAloneMicros.toFixed(1)} µs)`,
      micros: cost.durableStoreMicros,
    },
  ];
}

/**
 * The 100 KB PNG case's target is twice bare multer's CPU per request. Its floor: what bare multer
 * does, what a checked and durable upload adds to it, and the work of every accepted submission.
 */
function printPngFloor(results: RequestPathResults): void {
  const multer = results.ceilings.multerPng.cpuMicrosPerRequest ?? 0;
  const png = intakeCase(results, 'multipart, 100 KB PNG');
  printCpuFloor(
    'Floor of the 100 KB PNG case',
    [
      ...uploadParts(results.ceilings.multerPng, results.ceilings.multerPngKept, results.uploadCosts.png),
      ...submissionParts(results),
    ],
    { part: 'target: 2 × bare multer', micros: 2 * multer },
    png ? [{ part: 'Intake, multipart with a 100 KB PNG (PostgreSQL)', micros: png.cpuMicrosPerRequest }] : [],
  );
}

/** What byThread splits: a process's CPU and full collections per request (LoadFigure's fields). */
interface ThreadFigures {
  cpuMicrosPerRequest?: number;
  mainThreadCpuMicrosPerRequest?: number;
  fullCollectionsPerRequest?: number;
  fullCollectionPauseMicrosPerRequest?: number;
}

/**
 * A process's CPU per request, the parts of it on its main thread and on its other threads, and the
 * main-thread pauses of its full garbage collections (their concurrent marking is in the other
 * threads' part).
 */
function byThread(label: string, figure: ThreadFigures | undefined): FloorPart[] {
  const total = figure?.cpuMicrosPerRequest;
  const mainThread = figure?.mainThreadCpuMicrosPerRequest;
  if (total === undefined || mainThread === undefined) {
    return [];
  }
  const collections = figure?.fullCollectionsPerRequest ?? 0;
  return [
    { part: label, micros: total },
    { part: `  of it, main thread`, micros: mainThread },
    {
      part: `    of that, full garbage collections' pauses (${collections.toFixed(2)} per request)`,
      micros: figure?.fullCollectionPauseMicrosPerRequest ?? 0,
    },
    { part: `  of it, other threads (V8's garbage collection, libuv's file system calls)`, micros: total - mainThread },
  ];
}

/**
 * The 10 MB case's target is 60 % of bare multer's MB/s. Both are bound by CPU on the bench's
 * machine (20 uploads at once), so a gateway spending more than 1 / 0.6 = 1.67 times bare multer's
 * CPU per upload cannot reach it; the floor is what a checked, durable upload adds (the request's
 * own fixed costs are negligible beside 10 MB). Below it, Intake's CPU and bare multer's with its
 * files kept, each split by thread: where the gap between them is.
 */
function printPdfFloor(results: RequestPathResults): void {
  const { multerPdf, multerPdfKept } = results.ceilings;
  const pdf = intakeCase(results, '20 × 10 MB PDF uploads');
  printCpuFloor(
    'Floor of the 20 × 10 MB case',
    uploadParts(multerPdf, multerPdfKept, results.uploadCosts.pdf),
    {
      part: "CPU that keeps 60 % of bare multer's MB/s: 1.67 × bare multer",
      micros: (multerPdf.cpuMicrosPerRequest ?? 0) / 0.6,
    },
    [
      ...byThread('Intake, 20 × 10 MB PDF uploads (PostgreSQL)', pdf),
      ...byThread('bare multer keeping its files', multerPdfKept),
    ],
  );
}

/**
 * The plain JSON cases' throughput targets are all (PostgreSQL) and 60 % (PGlite) of a raw insert
 * into a bare table: on PostgreSQL only group commit can pass it. Beside them,
 * Intake's own INSERT timed apart (intake-insert.ts): what the database does for the submission row
 * itself. On PGlite the database runs on the gateway's thread, so the fixed costs above add to it:
 * the gateway can answer at most one request per their sum.
 */
function printThroughputFloor(results: RequestPathResults): void {
  const { ceilings, intakeInserts, fixedCosts } = results;
  const fixedWork =
    (ceilings.koaJson.cpuMicrosPerRequest ?? 0) +
    fixedCosts.tokenCheckMicros +
    fixedCosts.receiptMicros +
    fixedCosts.accessLineMicros;
  const share = (value: number, raw: InsertFigure) =>
    `${fixed(raw.perSecond > 0 ? (value / raw.perSecond) * 100 : 0)} %`;
  const rowOf = (
    database: string,
    raw: InsertFigure,
    intake: InsertFigure,
    grouped: GroupedFigure | undefined,
    atMost: number | null,
    targetShare: number,
  ) => {
    const plain = intakeCase(results, 'JSON, 3 plain fields', database);
    return {
      database,
      'raw insert/s': fixed(raw.perSecond),
      "Intake's INSERT/s": `${fixed(intake.perSecond)} (${share(intake.perSecond, raw)})`,
      'grouped, 20 callers/s (rows per commit)': grouped
        ? `${fixed(grouped.perSecond)} (${share(grouped.perSecond, raw)}; ${grouped.rowsPerGroup.toFixed(1)})`
        : '',
      'CPU µs per INSERT, this process': fixed(intake.cpuMicrosPerInsert),
      'at most, with bare Koa, token check, receipt, access line':
        atMost === null ? '' : `${fixed(atMost)}/s (${share(atMost, raw)})`,
      'Intake, plain JSON': plain ? `${fixed(plain.perSecond)}/s (${share(plain.perSecond, raw)})` : '',
      target: `${fixed(raw.perSecond * targetShare)}/s (${fixed(targetShare * 100)} %)`,
    };
  };
  const pgliteAtMost = 1_000_000 / (intakeInserts.pglite.cpuMicrosPerInsert + fixedWork);
  console.log(
    "Floor of the plain JSON throughput targets (Intake's INSERT of the submission row timed apart, " +
      'prepared, into the migrated schema; same callers as the raw inserts)',
  );
  console.table([
    rowOf('postgresql', ceilings.postgresInsert, intakeInserts.postgresql, intakeInserts.grouped.postgresql, null, 1),
    rowOf('pglite', ceilings.pgliteInsert, intakeInserts.pglite, intakeInserts.grouped.pglite, pgliteAtMost, 0.6),
  ]);
}

/**
 * The sanitiser's CPU per HTML form in its parts (sanitiser-cost.ts): jsdom's parse, DOMPurify's walk
 * and the rest, timed in the same fresh process; they add up to the measured figure. Printed on every
 * run, so an unmet target shows which part stops it; below it, how much of the core the measuring
 * process had, as a busy machine inflates CPU per form.
 */
export function printSanitiserSplit(figure: SanitiserFigure): void {
  printCpuFloor(
    'The sanitiser, the 3 HTML fields of one form, in a fresh process',
    sanitiserParts(figure),
    { part: 'target', micros: SANITISER_TARGET_MICROS },
    [
      {
        part: "of the sum, V8's helper threads (garbage collection)",
        micros: figure.microsPerForm - figure.mainThreadMicrosPerForm,
      },
    ],
    'the sanitiser: sanitizeSubmission of the form (the sum)',
    'form',
  );
  console.log(
    `  its main thread ran ${fixed(figure.mainThreadShare * 100)} % of the measured wall time ` +
      '(under 100 %, other processes took turns on its core and the figure reads high; a busy machine can ' +
      'raise it even near 100 %, see docs/performance.md)',
  );
}
