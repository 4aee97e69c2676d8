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

/** Lines held at most this long before they are handed to the stream (see StdoutLines). */
const LOG_HOLD_MS = 10;
/** …or until this many characters are held. */
const LOG_HOLD_CHARS = 16 * 1024;

/**
 * Stdout, written asynchronously: a synchronous write per access line cost the gateway about a sixth
 * of its CPU under load. Lines are held for up to LOG_HOLD_MS (or 16 KiB) and handed to the stream
 * together: a write per line, even an asynchronous one, was most of a request's log cost (issue #37,
 * docs/performance.md). Lines logged while a write is in flight are buffered and go out in the next
 * one. What is held or buffered is written synchronously when the process exits (the `exit` event);
 * a stopping service calls flushLogs() first, which also waits for the write in flight.
 * One stream for the whole process, so lines from several loggers are never interleaved mid-line.
 */
class StdoutLines implements DestinationStream {
  private readonly buffered = pino.destination({ dest: 1, sync: false });
  private held = '';
  private holdTimer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor() {
    // Registered after pino's own exit handler (made with the stream), so it runs after that one
    // has written the stream's buffer: the held lines, which are newer, come last.
    process.once('exit', () => this.writeHeldNow());
  }

  write(line: string): void {
    if (this.ended) {
      // After flushLogs(), a straggler line is written at once: the process is about to exit.
      this.writeNow(line);
      return;
    }
    this.held += line;
    if (this.held.length >= LOG_HOLD_CHARS) {
      this.handOver();
    } else if (this.holdTimer === undefined) {
      // Unreferenced: held lines never keep a process alive; its exit writes them.
      this.holdTimer = setTimeout(() => this.handOver(), LOG_HOLD_MS).unref();
    }
  }

  flush(): Promise<void> {
    if (this.ended) {
      return Promise.resolve();
    }
    this.handOver();
    return new Promise((resolve) => {
      this.buffered.once('close', () => {
        this.ended = true;
        resolve();
      });
      this.buffered.end();
    });
  }

  private handOver(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    if (this.held !== '') {
      const lines = this.held;
      this.held = '';
      this.buffered.write(lines);
    }
  }

  private writeHeldNow(): void {
    clearTimeout(this.holdTimer);
    const lines = this.held;
    this.held = '';
    if (lines !== '') {
      this.writeNow(lines);
    }
  }

  private writeNow(lines: string): void {
    try {
      writeSync(1, lines);
    } catch {
      // stdout is gone: nothing left to tell.
    }
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
