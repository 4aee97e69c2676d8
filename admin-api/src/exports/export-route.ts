// GET /exports/<token> — a form's submissions as CSV, JSON or NDJSON, for a signed export link made
// by the `createSubmissionExport` mutation. A forged, altered or expired link, and a form deleted
// since, are all the same 404. The body streams from the database batch by batch with backpressure:
// Koa pipes it to the socket and destroys it when the client goes away, which ends the reading. On
// PostgreSQL the rows are read and written by an export process of its own (exports/export-process.ts),
// so the admin API only passes bytes on; on the embedded PGlite the database lives in this process,
// so the export runs here.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { isServiceOutage, OUTAGE_RETRY_AFTER_SECONDS } from '@intake/shared/outage';
import type { Services } from '@intake/shared/services';
import type { AdminKoaContext } from '../koa-context.js';
import { setDownloadName } from '../lib/content-disposition.js';
import type { DownloadLinks } from '../lib/download-link.js';
import { exportChunks } from './export-body.js';
import { csvColumns, CONTENT_TYPES, FILE_EXTENSIONS } from './export-formats.js';
import type { ExportLinks, ExportRequest } from './export-link.js';
import { startExportProcess, type ExportOutput } from './export-process-client.js';
import { fieldNames } from './export-rows.js';
import { findLiveForm } from '../lib/live-finders.js';
import { plainRefusal } from '../http/plain-refusal.js';

export interface ExportRouteDeps {
  services: Services;
  exportLinks: ExportLinks;
  /** Signs the file links inside an export, valid longer than a console link (see configuration). */
  exportFileLinks: DownloadLinks;
  /**
   * On PostgreSQL: what the export process needs to read and sign by itself (the options of
   * `exportFileLinks`). Null on PGlite, whose one connection is in this process.
   */
  exportProcess: ExportProcessOptions | null;
}

export interface ExportProcessOptions {
  databaseUrl: string;
  connectionTimeoutMs: number;
  jwtSecret: string;
  fileLinkTtlSeconds: number;
  publicOrigin: () => string;
}

// Characters no common file system takes in a name (Windows is the strictest), and control characters.
const NOT_IN_FILE_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

/** `<form name>-<YYYY-MM-DD>.<ext>`, a name every system can save; setDownloadName makes it header-safe. */
function exportFileName(formName: string, request: ExportRequest, now: Date): string {
  const base = formName.replace(NOT_IN_FILE_NAME, '_').trim().slice(0, 100) || 'submissions';
  return `${base}-${now.toISOString().slice(0, 10)}.${FILE_EXTENSIONS[request.format]}`;
}

/** In this process (PGlite): a stream of the export's bytes. On PostgreSQL: a started export process. */
async function bodyOf(deps: ExportRouteDeps, request: ExportRequest): Promise<Readable | ExportOutput> {
  const em = deps.services.db.em.fork();
  const scope = { formId: request.formId, spam: request.spam, filter: request.filter };
  // The column set is read before the first byte goes out, so a failure here is still a status.
  const columns = request.format === 'CSV' ? csvColumns(await fieldNames(em, scope), request.notes) : null;
  const external = deps.exportProcess;
  if (external === null) {
    // The socket pulls the stream after this request's context is gone: its file links are signed in
    // this context, for the origin the download was asked at (as the export process gets it below).
    const links: DownloadLinks = {
      ...deps.exportFileLinks,
      urlFor: AsyncLocalStorage.bind(deps.exportFileLinks.urlFor),
    };
    // Bytes, not objects: backpressure counts bytes buffered, not batches.
    return Readable.from(exportChunks(em, request.format, scope, columns, links, request.notes), {
      objectMode: false,
    });
  }
  const { filter } = request;
  return startExportProcess({
    databaseUrl: external.databaseUrl,
    connectionTimeoutMs: external.connectionTimeoutMs,
    formId: request.formId,
    format: request.format,
    spam: request.spam,
    filter: {
      query: filter.query,
      createdAfter: filter.createdAfter?.toISOString() ?? null,
      createdBefore: filter.createdBefore?.toISOString() ?? null,
      hasFiles: filter.hasFiles,
    },
    columns,
    notes: request.notes,
    fileLinks: {
      jwtSecret: external.jwtSecret,
      ttlSeconds: external.fileLinkTtlSeconds,
      origin: external.publicOrigin(),
    },
  });
}

export function downloadExport(deps: ExportRouteDeps) {
  return async (ctx: AdminKoaContext & { params: Record<string, string> }): Promise<void> => {
    const request = deps.exportLinks.verify(ctx.params.token ?? '');
    if (request === null) {
      plainRefusal(ctx, 'not_found');
      return;
    }
    let body: Readable | ExportOutput;
    let formName: string;
    try {
      const form = await findLiveForm(deps.services.db.em.fork(), request.formId);
      if (form === null) {
        plainRefusal(ctx, 'not_found');
        return;
      }
      formName = form.name;
      body = await bodyOf(deps, request);
    } catch (error) {
      if (!isServiceOutage(error)) {
        throw error;
      }
      ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      plainRefusal(ctx, 'service_unavailable');
      return;
    }
    setDownloadName(ctx, exportFileName(formName, request, new Date()));
    ctx.set('Content-Type', CONTENT_TYPES[request.format]);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    if (body instanceof Readable) {
      ctx.body = body;
      return;
    }
    ctx.status = 200;
    if (ctx.method === 'HEAD') {
      body.cancel();
      return;
    }
    // The export process's bytes go to the socket without Koa (see export-process-client.ts); the
    // status and headers set above go out with the first of them.
    ctx.respond = false;
    body.pipeTo(ctx.res);
  };
}
