import cluster from 'node:cluster';
import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

// JSON lines on stdout. Headers that carry credentials are redacted wherever they appear, as a
// second line of defence: the code never logs them on purpose.
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-key-service"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-key-service"]',
  'password',
  'token',
  'secret',
];

/**
 * Stdout, written asynchronously: a synchronous write per access line cost the gateway about a sixth
 * of its CPU under load. Lines logged while a write is in flight are buffered and go out together in
 * the next one. pino writes what is still buffered synchronously when the process exits (the `exit`
 * event); a stopping service calls flushLogs() first, which also waits for the write in flight.
 * One stream for the whole process, so lines from several loggers are never interleaved mid-line.
 */
class StdoutLines implements DestinationStream {
  private readonly buffered = pino.destination({ dest: 1, sync: false });
  private ended = false;

  write(line: string): void {
    if (!this.ended) {
      this.buffered.write(line);
      return;
    }
    // After flushLogs(), a straggler line is written at once: the process is about to exit.
    try {
      writeSync(1, line);
    } catch {
      // stdout is gone: nothing left to tell.
    }
  }

  flush(): Promise<void> {
    if (this.ended) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.buffered.once('close', () => {
        this.ended = true;
        resolve();
      });
      this.buffered.end();
    });
  }
}

let stdoutLines: StdoutLines | undefined;

/**
 * A database error carries its statement with the values inlined (`query`, `params`) and
 * PostgreSQL's `detail` (`Key (idempotency_key)=(…) already exists`): submitted values, which no log
 * line may hold. The error's type, code, message and stack stay.
 */
const STATEMENT_FIELDS = ['query', 'params', 'queryOptions', 'detail', 'where', 'internalQuery', 'hint'];

export function serializeError(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of STATEMENT_FIELDS) {
    delete serialized[field];
  }
  return serialized;
}

/** `destination` defaults to stdout; tests pass a stream to read the lines back. */
export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  destination?: DestinationStream,
): Logger {
  // One of several gateway processes (GATEWAY_PROCESSES): its lines say which.
  const base = cluster.isWorker ? { gatewayProcess: cluster.worker?.id, ...bindings } : bindings;
  const options = {
    level,
    base,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return pino(options, destination ?? (stdoutLines ??= new StdoutLines()));
}

/** Writes every line logged to stdout so far and waits until it is written (before a process exits). */
export function flushLogs(): Promise<void> {
  return stdoutLines?.flush() ?? Promise.resolve();
}
