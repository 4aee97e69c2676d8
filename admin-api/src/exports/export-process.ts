// The export process: one export of one form, read from PostgreSQL and written to the job's Unix
// socket, then exit. The admin API starts it for each download on PostgreSQL (export-process-client.ts).
// Why a process of its own: the admin API idles at about 145 MB and a million-row export grew its heap
// by some 250 MB more; this one loads in about 50 MB (it imports nothing from `@intake/shared`'s index,
// which would load the ORM), its heap is bounded by its flags, and it frees everything when it exits.
// Protocol: the job as one JSON document on stdin, `ready` on stdout, the export on the one connection
// accepted; a failure exits 1 with `{"code","severity","message"}` as one line on stderr. The figures
// and the protocol's reasons: docs/performance.md ("Exports") and docs/admin-api.md ("Exports").
import { once } from 'node:events';
import net from 'node:net';
import pg from 'pg';
import { createDownloadLinks } from '@intake/shared/download-links';
import { exportChunks } from './export-body.js';
import type { CsvColumns } from './export-formats.js';
import type { ExportFormat } from './export-link.js';
import type { RunSql } from './export-rows.js';
import type { SubmissionFilter } from '../lib/submission-filter.js';

/** What the admin API hands the export process. */
export interface ExportJob {
  /** Where to listen for the admin API. */
  socketPath: string;
  databaseUrl: string;
  /** Milliseconds to wait for a connection before giving up (an outage). */
  connectionTimeoutMs: number;
  formId: string;
  format: ExportFormat;
  spam: boolean;
  /** Instants as ISO strings. */
  filter: { query: string | null; createdAfter: string | null; createdBefore: string | null; hasFiles: boolean | null };
  columns: CsvColumns | null;
  /** Whether the internal notes are in it. */
  notes: boolean;
  /** For the file links written into the export. */
  fileLinks: { jwtSecret: string; ttlSeconds: number; origin: string };
}

const CONNECT_WAIT_MS = 30_000;

/** MikroORM's `?` placeholders as `pg`'s `$1, $2, …`; the export's SQL has no `?` inside a literal. */
export function positionalPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

async function readJob(): Promise<ExportJob> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    text += chunk as string;
  }
  return JSON.parse(text) as ExportJob;
}

const instant = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

async function run(): Promise<void> {
  const job = await readJob();
  const filter: SubmissionFilter = {
    query: job.filter.query,
    createdAfter: instant(job.filter.createdAfter),
    createdBefore: instant(job.filter.createdBefore),
    hasFiles: job.filter.hasFiles,
  };
  const client = new pg.Client({
    connectionString: job.databaseUrl,
    connectionTimeoutMillis: job.connectionTimeoutMs,
    application_name: 'intake export',
  });
  // The connection failing while no query runs (the backend terminated during a slow download).
  client.on('error', fail);
  await client.connect();
  const query: RunSql = async <T>(sql: string, params: unknown[]) =>
    (await client.query(positionalPlaceholders(sql), params)).rows as T[];
  const links = createDownloadLinks({ ...job.fileLinks, publicOrigin: () => job.fileLinks.origin });
  const scope = { formId: job.formId, spam: job.spam, filter };
  const server = net.createServer();
  server.listen(job.socketPath);
  await once(server, 'listening');
  process.stdout.write('ready\n');
  // The admin API connects at once; if it is gone, so is the reason to wait.
  const [socket] = (await once(server, 'connection', { signal: AbortSignal.timeout(CONNECT_WAIT_MS) })) as [net.Socket];
  server.close();
  socket.on('error', () => {
    // Seen as `close` below.
  });
  // Backpressure: a write that fills the socket's buffer waits for `drain`, so a slow client slows
  // the reading and nothing piles up here. The admin API going away is an error that ends the loop.
  const gone = once(socket, 'close').then(() => {
    throw new Error('the admin API closed the export socket');
  });
  gone.catch(() => undefined); // Handled by the races below.
  for await (const chunk of exportChunks(query, job.format, scope, job.columns, links, job.notes)) {
    if (!socket.write(chunk)) {
      await Promise.race([once(socket, 'drain'), gone]);
    }
  }
  socket.end();
  await Promise.race([once(socket, 'finish'), gone]);
  await client.end();
}

/** Reports the error on stderr (see the protocol above) and exits at once: nothing is left to finish. */
function fail(error: unknown): void {
  const { code, severity, message } = (error ?? {}) as { code?: unknown; severity?: unknown; message?: unknown };
  process.stderr.write(`${JSON.stringify({ code, severity, message: String(message) })}\n`, () => process.exit(1));
}

run().then(() => process.exit(0), fail);
