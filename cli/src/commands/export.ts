// intake export: a form's submissions as CSV, JSON or NDJSON, streamed to a file or to stdout, with
// a progress line on a terminal (ora on stderr, so the data on stdout stays clean).
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type Command, Option } from 'commander';
import ora from 'ora';
import { type AdminClient, ApiError } from '../api/client.js';
import { CreateExportDocument, SubmissionCountDocument, type SubmissionExportFormat } from '../gql/graphql.js';
import { contextOf, optionsOf } from '../context.js';
import { writePrivateFile } from '../private-file.js';
import { progressText, RecordCounter } from './export-progress.js';
import { addFilterOptions, filterOf, type FilterOptions } from './filters.js';

interface ExportOptions extends FilterOptions {
  form: string;
  format: 'csv' | 'json' | 'ndjson';
  out?: string;
  notes?: boolean;
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** How many submissions the export will hold, for the progress line (the same view and filter). */
async function totalOf(client: AdminClient, options: ExportOptions): Promise<number | undefined> {
  try {
    const { submissions } = await client.request(SubmissionCountDocument, {
      formId: options.form,
      spam: Boolean(options.spam),
      filter: filterOf(options),
    });
    return submissions.totalCount;
  } catch {
    return undefined; // The progress line then counts without an end; the export itself says what is wrong.
  }
}

export function registerExport(program: Command): void {
  addFilterOptions(
    program
      .command('export')
      .description("Download a form's submissions (the filters of submissions list apply)")
      .requiredOption('--form <id>')
      .addOption(new Option('--format <format>').choices(['csv', 'json', 'ndjson']).default('csv'))
      .option('--out <file>', 'write to this file (default: stdout)')
      .option('--notes', "the team's internal notes too (status and assignee are always in it)"),
  ).action(async (_options, command: Command) => {
    const { client, out } = await contextOf(command);
    const options = optionsOf<ExportOptions>(command);
    const filter = filterOf(options);
    const { createSubmissionExport } = await client.request(CreateExportDocument, {
      formId: options.form,
      format: options.format.toUpperCase() as SubmissionExportFormat,
      filter,
      spam: Boolean(options.spam),
      notes: Boolean(options.notes),
    });
    const response = await fetch(createSubmissionExport.url);
    if (!response.ok || !response.body) {
      throw new ApiError(`The export link answered HTTP ${response.status}`, [], response.status);
    }
    const toTerminal = !options.out && process.stdout.isTTY;
    // A terminal without a width (a bare pseudo-terminal) would make ora clear lines without end.
    const showProgress = Boolean(process.stderr.isTTY && process.stderr.columns > 0) && !toTerminal;
    const total = showProgress ? await totalOf(client, options) : undefined;
    const spinner = showProgress ? ora({ stream: process.stderr, text: progressText(0, total, 0) }).start() : undefined;
    const records = new RecordCounter(options.format);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (spinner) {
          records.push(chunk);
          spinner.text = progressText(records.records, total, bytes);
        }
        callback(null, chunk);
      },
    });
    const source = Readable.fromWeb(response.body as WebReadableStream);
    try {
      if (options.out) {
        // A new file of mode 0600 renamed over the target at the end: a broken download leaves no half file.
        await writePrivateFile(options.out, source, counter);
      } else {
        await pipeline(source, counter, process.stdout, { end: false });
      }
    } catch (error) {
      spinner?.fail('Export failed');
      throw error;
    }
    spinner?.succeed(`Exported ${size(bytes)}${options.out ? ` to ${options.out}` : ''}`);
    if (options.out && (out.json || !spinner)) {
      out.done(`Exported ${size(bytes)} to ${options.out}`, { file: options.out, format: options.format, bytes });
    }
  });
}
