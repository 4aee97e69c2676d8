// The export part of the data bench: the admin API in its own process (servers/admin.ts) on the
// seeded form, one CSV and one NDJSON export of every submission downloaded over HTTP. On PostgreSQL
// the admin API starts an export process for each download (admin-api/src/exports/export-process.ts)
// and passes its bytes on; the bench reads that process's peak resident memory (VmHWM, polled from
// /proc while it runs) and how much the admin process grew (its VmHWM, reset once idle, less its
// idle RSS). Targets: the export process stays under EXPORT_PEAK_RSS_TARGET whatever the number of
// rows, and the admin process grows by less than ADMIN_GROWTH_TARGET while it passes the bytes on.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchAdmin, signedInGql } from './admin-client.js';
import { serverEntry, startBenchServer } from './child-server.js';

export const EXPORT_PEAK_RSS_TARGET = 150 * 1024 * 1024;
export const ADMIN_GROWTH_TARGET = 16 * 1024 * 1024;

export interface ExportFigure {
  format: 'CSV' | 'NDJSON';
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** The admin process's resident memory before the download (idle, after a GC), and its peak during it (bytes). */
  rssBefore: number;
  peakRss: number;
  /** The highest peak RSS of the export processes the admin process started (bytes); null when it started none. */
  exportProcessPeakRss: number | null;
  /** V8 heap in use after a full GC once the download ended: what the export left behind. */
  heapAfter: number;
  target: string;
  met: boolean;
}

const CREATE_EXPORT = `mutation($formId: ID!, $format: SubmissionExportFormat!) {
  createSubmissionExport(formId: $formId, format: $format) { url }
}`;

/** Reads the whole body, counting bytes and line feeds, holding one chunk at a time. */
async function drain(response: Response): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
      lines += 1;
    }
  }
  return { bytes, lines };
}

function peakRssOf(pid: number): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null; // Gone (or not Linux).
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * Polls the peak RSS of `pid`'s child processes every 50 ms until stopped. VmHWM only rises, so the
 * last reading before a process exits misses at most its last 50 ms, when it is writing its end.
 */
function watchChildPeaks(pid: number): { stop(): number | null } {
  let peak: number | null = null;
  const read = () => {
    for (const child of childrenOf(pid)) {
      const rss = peakRssOf(child);
      if (rss !== null && (peak === null || rss > peak)) {
        peak = rss;
      }
    }
  };
  const timer = setInterval(read, 50);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/** Exports of the seeded form from a separate admin process; `progress` reports each step. */
export async function measureExports(
  databaseUrl: string,
  formId: string,
  progress: (step: string) => void,
): Promise<ExportFigure[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'intake-bench-export-'));
  const admin = benchAdmin(databaseUrl, dataDir);
  const server = await startBenchServer(serverEntry('admin'), {
    env: admin.env,
    execArgv: (process.env.BENCH_EXPORT_EXEC_ARGV ?? '').split(' ').filter(Boolean),
  });
  try {
    const gql = await signedInGql(server.url, admin);
    const figures: ExportFigure[] = [];
    for (const format of ['CSV', 'NDJSON'] as const) {
      progress(`data: ${format} export through a separate admin process`);
      const created = await gql<{ createSubmissionExport: { url: string } }>(CREATE_EXPORT, { formId, format });
      const { url } = created.createSubmissionExport;
      const before = await server.memory({ gc: true, resetPeak: true });
      const children = watchChildPeaks(server.pid);
      const started = performance.now();
      const response = await fetch(url);
      if (response.status !== 200) {
        throw new Error(`export answered ${response.status}`);
      }
      const { bytes, lines } = await drain(response);
      const seconds = (performance.now() - started) / 1000;
      const exportProcessPeakRss = children.stop();
      const after = await server.memory({ gc: true });
      // CSV: a header line, then one line per submission (the bench data has no line breaks).
      const rows = format === 'CSV' ? lines - 1 : lines;
      figures.push({
        format,
        rows,
        bytes,
        seconds,
        rowsPerSecond: rows / seconds,
        rssBefore: before.rss,
        peakRss: after.peakRss,
        exportProcessPeakRss,
        heapAfter: after.heapUsed,
        ...exportTarget(before.rss, after.peakRss, exportProcessPeakRss),
      });
    }
    return figures;
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const MB = 1024 * 1024;

/** In an export process: its peak, and the admin process's growth; else the admin process's peak. */
function exportTarget(
  adminIdle: number,
  adminPeak: number,
  exportProcessPeak: number | null,
): { target: string; met: boolean } {
  if (exportProcessPeak === null) {
    return {
      target: `admin peak RSS < ${EXPORT_PEAK_RSS_TARGET / MB} MB`,
      met: adminPeak < EXPORT_PEAK_RSS_TARGET,
    };
  }
  return {
    target: `export process peak RSS < ${EXPORT_PEAK_RSS_TARGET / MB} MB, admin growth < ${ADMIN_GROWTH_TARGET / MB} MB`,
    met: exportProcessPeak < EXPORT_PEAK_RSS_TARGET && adminPeak - adminIdle < ADMIN_GROWTH_TARGET,
  };
}

export function printExportResults(figures: readonly ExportFigure[]): void {
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log('Export of every submission of the form, streamed over HTTP from a separate admin process');
  console.log('(on PostgreSQL the admin process starts an export process per download and passes its bytes on)');
  console.table(
    figures.map((figure) => ({
      format: figure.format,
      rows: figure.rows.toLocaleString('en'),
      MB: mb(figure.bytes),
      seconds: figure.seconds.toFixed(1),
      'rows/s': Math.round(figure.rowsPerSecond).toLocaleString('en'),
      'export process peak RSS MB': figure.exportProcessPeakRss === null ? '-' : mb(figure.exportProcessPeakRss),
      'admin idle MB': mb(figure.rssBefore),
      'admin peak MB': mb(figure.peakRss),
      'admin growth MB': mb(figure.peakRss - figure.rssBefore),
      'heap after GC MB': mb(figure.heapAfter),
      target: figure.target,
      met: figure.met ? 'yes' : 'NO',
    })),
  );
}
