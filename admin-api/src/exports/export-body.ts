// The text of one export from its rows: the same code inside the admin API (on PGlite) and in the
// export process (on PostgreSQL), so both write the same bytes.
import type { DownloadLinks } from '../lib/download-link.js';
import { csvChunks, jsonChunks, ndjsonChunks, type CsvColumns } from './export-formats.js';
import type { ExportFormat } from './export-link.js';
import { readSubmissionBatches, type ExportScope, type SqlSource } from './export-rows.js';

/**
 * `columns` is the CSV header (read before the first byte, see the route), null for JSON and NDJSON;
 * `notes`: the internal notes are in it.
 */
export function exportChunks(
  source: SqlSource,
  format: ExportFormat,
  scope: ExportScope,
  columns: CsvColumns | null,
  links: DownloadLinks,
  notes: boolean,
): AsyncGenerator<string> {
  switch (format) {
    case 'CSV':
      if (columns === null) {
        throw new Error('exportChunks: a CSV export needs its columns');
      }
      return csvChunks(readSubmissionBatches(source, scope, { fields: columns.fields, notes }), columns, links);
    case 'JSON':
      return jsonChunks(readSubmissionBatches(source, scope, { notes }), links);
    case 'NDJSON':
      return ndjsonChunks(readSubmissionBatches(source, scope, { notes }), links);
  }
}
