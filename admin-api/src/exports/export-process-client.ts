// The admin API's side of the export process (export-process.ts): start it with the job, wait until
// it is connected to the database and listening (so a database that cannot serve is still a status,
// not a broken download), then pass its bytes on to the response.
//
// The bytes are read into one reused 64 KB buffer (`onread`), and the next read waits until the
// response has handed the last one to the kernel. Read the usual way, every chunk is a new buffer
// that V8 frees only at its next collection, which a byte stream hardly triggers: 1,000,000 rows
// grew this process by 51 MB of dead buffers, against about 15 MB this way (docs/performance.md).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ExportJob } from './export-process.js';

/**
 * The export process failed before it was ready; `cause` is what it reported (code, severity, message).
 * Not in the error catalogue: the export route answers a database outage as 503 and anything else as
 * the masked 500, never with this error.
 */
export class ExportProcessError extends Error {
  constructor(override readonly cause: { code?: unknown; severity?: unknown; message: string }) {
    super('export process failed');
  }
}

/**
 * The compiled export-process.js beside this module. Under jest this module runs from `src/`, but a
 * process always runs the build (`npm test` builds first), as every test that spawns one.
 */
export function exportProcessEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.join(here.replace(/([\\/]admin-api[\\/])src([\\/]exports)$/, '$1dist$2'), 'export-process.js');
}

// Node flags of the export process. V8 sizes its heap for the machine, not for a process that holds
// one batch: with its defaults this process peaked at 236 MB on a 200,000-row export. Semi-spaces of
// 16 MB and an old generation of 64 MB kept it at 120 MB at the same speed; 4 MB semi-spaces went
// down to 94 MB but took 40 % longer over a CSV (docs/performance.md, Exports).
const EXPORT_PROCESS_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=64'];

// The stderr of a failed process holds one short JSON line; more is not ours to keep.
const MAX_STDERR = 16 * 1024;
const READ_BUFFER_BYTES = 64 * 1024;

function databaseEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        (entry[0] === 'PATH' || entry[0] === 'NODE_EXTRA_CA_CERTS' || entry[0].startsWith('PG')),
    ),
  );
}

export type JobWithoutSocket = Omit<ExportJob, 'socketPath'>;

/** A started export: `pipeTo` passes its bytes on to a response and ends it (or breaks it, on failure). */
export interface ExportOutput {
  pipeTo(response: ServerResponse): void;
  /** Ends the process without reading (a HEAD request, or a response that never started). */
  cancel(): void;
}

function reportedError(stderr: string, status: string): ExportProcessError {
  const line = stderr.trim().split('\n').at(-1) ?? '';
  try {
    const reported = JSON.parse(line) as { code?: unknown; severity?: unknown; message?: unknown };
    return new ExportProcessError({
      code: reported.code,
      severity: reported.severity,
      message: String(reported.message),
    });
  } catch {
    return new ExportProcessError({ message: `export process ended (${status}) without a report` });
  }
}

/**
 * Starts the export process for `job`; answers once it is connected to the database and listening,
 * or rejects with an ExportProcessError when it fails before.
 */
export async function startExportProcess(job: JobWithoutSocket): Promise<ExportOutput> {
  // A folder only this user can enter, so no one else can connect to the socket first.
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-export-'));
  const socketPath = path.join(dir, 'export.sock');
  const child = spawn(process.execPath, [...EXPORT_PROCESS_FLAGS, exportProcessEntry()], {
    // The job comes on stdin; of the environment only what Node and `pg` read to reach the
    // database as the admin API does (PGSSLMODE, PGPASSWORD, a CA for TLS), nothing else of its secrets.
    env: databaseEnvironment(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-MAX_STDERR);
  });
  const exited = new Promise<string>((resolve) => {
    child.once('close', (code, signal) => resolve(code === 0 ? 'ok' : (signal ?? `status ${String(code)}`)));
  });
  void exited.then(() => rm(dir, { recursive: true, force: true }));
  child.once('error', () => {
    // A failure to start shows as `close` with no status.
  });
  child.stdin.on('error', () => {
    // The process ended before it read the job: its exit status tells.
  });
  child.stdin.end(JSON.stringify({ ...job, socketPath } satisfies ExportJob));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
  };

  const ready = await Promise.race([
    (async () => {
      for await (const line of createInterface({ input: child.stdout })) {
        if (line === 'ready') {
          return true;
        }
      }
      return false;
    })(),
    exited.then(() => false),
  ]);
  if (!ready) {
    kill();
    throw reportedError(stderr, await exited);
  }
  // Nothing more comes on stdout, but it must reach its end for the process's `close`.
  child.stdout.resume();

  return {
    cancel: kill,
    pipeTo(response) {
      let ended = false;
      const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      const socket = net.connect({
        path: socketPath,
        onread: {
          buffer,
          callback(bytes, filled) {
            // Paused (false) until the response no longer needs these bytes: then the buffer is
            // read into again.
            response.write(filled.subarray(0, bytes), () => socket.resume());
            return false;
          },
        },
      });
      const fail = () => {
        ended = true;
        kill();
        socket.destroy();
        // No closing chunk: the client sees an incomplete download, never a short file that looks whole.
        response.destroy();
      };
      socket.once('error', fail);
      socket.once('end', () => {
        void exited.then((status) => {
          if (status === 'ok') {
            ended = true;
            response.end();
          } else {
            fail();
          }
        });
      });
      // The client went away (or the response failed): stop the export.
      response.once('close', () => {
        if (!ended || !response.writableFinished) {
          fail();
        }
      });
    },
  };
}
