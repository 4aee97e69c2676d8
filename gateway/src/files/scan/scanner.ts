/**
 * Antivirus stage of the file pipeline (`CLAMAV_ENABLED`): every file is streamed to clamd with
 * INSTREAM (clamd-client.ts), and the stage fails closed: only clamd's explicit `stream: OK`,
 * received after the whole file was sent, lets a file through; a signature is `file_infected`,
 * anything else `scanner_unavailable` (docs/security.md, "The file pipeline"). INSTREAM is spoken
 * here rather than through the `clamscan` package, which, measured against clamd, ignored
 * backpressure and silence and let EICAR at a file's tail through (docs/decisions/clamav-client.md).
 */
import { AppError } from '@intake/shared/errors';
import { ClamdError, instream, parseInstreamReply, ping } from './clamd-client.js';
import type { ClamdTarget } from './clamd-client.js';

export interface Scanner {
  /** Resolves when the file is clean; otherwise throws an AppError (`file_infected`, `scanner_unavailable`). */
  scanFile(path: string): Promise<void>;
  /** Refuses new scans and waits for the ones in flight. */
  close?(): Promise<void>;
}

export type ScanVerdict = 'clean' | 'infected' | 'error';

export interface ClamScannerOptions extends ClamdTarget {
  /** Deadline of one whole scan: connect, stream, scan and answer. Default 30 s. */
  timeoutMs?: number;
  /** Called once per scan (metrics hook). It cannot change the verdict. */
  onScanned?: (durationMs: number, verdict: ScanVerdict) => void;
}

export interface ClamScanner extends Scanner {
  /** Resolves when clamd answers PING (start-up check); throws `scanner_unavailable` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SCAN_TIMEOUT_MS = 30_000;
const RETRY_AFTER_SECONDS = 30;

/** For `CLAMAV_ENABLED=false`: every file passes. */
export const noopScanner: Scanner = {
  async scanFile(): Promise<void> {},
};

/** The scanner the configuration asks for (`config.clamav` fits as it is). */
export function createScanner(options: ClamScannerOptions & { enabled: boolean }): Scanner {
  return options.enabled ? createClamScanner(options) : noopScanner;
}

export function createClamScanner(options: ClamScannerOptions): ClamScanner {
  const target = toTarget(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SCAN_TIMEOUT_MS;
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  function report(durationMs: number, verdict: ScanVerdict): void {
    try {
      options.onScanned?.(durationMs, verdict);
    } catch {
      // A broken metrics hook must not turn a verdict into a failure (or the reverse).
    }
  }

  async function scan(path: string): Promise<void> {
    const started = performance.now();
    let verdict: ScanVerdict = 'error';
    try {
      if (closed) {
        throw unavailable(new ClamdError('scanner closed'));
      }
      const reply = await instream(target, path, timeoutMs).catch((error: unknown) => {
        throw error instanceof ClamdError ? unavailable(error) : error;
      });
      const result = parseInstreamReply(reply.text);
      if (result.verdict === 'infected') {
        verdict = 'infected';
        throw new AppError('file_infected', 'The file was flagged by the virus scanner.', {
          cause: new Error(`clamd signature: ${result.signature}`),
        });
      }
      if (result.verdict === 'clean' && reply.afterRequest) {
        verdict = 'clean';
        return;
      }
      // An OK before clamd had the whole file cannot be a verdict about the file.
      const reason = result.verdict === 'clean' ? 'clamd answered before the whole file was sent' : result.reason;
      throw unavailable(new ClamdError(reason));
    } finally {
      report(performance.now() - started, verdict);
    }
  }

  return {
    scanFile(path: string): Promise<void> {
      const scanning = scan(path);
      const tracked = scanning.catch(() => {}).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      return scanning;
    },
    async ping(): Promise<void> {
      const reply = await ping(target, timeoutMs).catch((error: unknown) => {
        throw error instanceof ClamdError ? unavailable(error) : error;
      });
      if (reply.text.trim() !== 'PONG') {
        throw unavailable(new ClamdError(`unexpected answer to PING: ${reply.text.slice(0, 200)}`));
      }
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all(inFlight);
    },
  };
}

function toTarget(options: ClamdTarget): ClamdTarget {
  if (options.socket) {
    return { socket: options.socket };
  }
  if (options.port !== undefined) {
    return { host: options.host ?? '127.0.0.1', port: options.port };
  }
  // A configuration error, caught at start-up by the config schema already.
  throw new Error('ClamAV scanner needs CLAMAV_SOCKET or CLAMAV_HOST and CLAMAV_PORT');
}

function unavailable(cause: ClamdError): AppError {
  return new AppError('scanner_unavailable', 'The virus scanner is unavailable; try again later.', {
    retryAfter: RETRY_AFTER_SECONDS,
    cause,
  });
}
