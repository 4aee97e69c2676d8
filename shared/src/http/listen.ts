import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, toProblem } from '../errors/index.js';
import type { Logger } from '../logger/index.js';
import { answerClientError, type OpenExchange } from './client-error.js';

// Taken as Node's CommonJS module: an ES import of `node:http` makes Node build its namespace, whose
// WebSocket getters load Node's bundled undici, about 13 MB of RSS (docs/performance.md).
const { createServer } = process.getBuiltinModule('node:http');

export interface RunningServer {
  server: Server;
  /** The origin, `http://host:port`, with the real port when 0 was asked for. */
  url: string;
  /**
   * Drains: stops accepting, answers requests that still arrive on open connections with 503,
   * waits for in-flight requests to finish (at most `shutdownTimeoutMs`), then closes every
   * connection. It resolves only once the handlers have returned, so what they use (the database)
   * can be closed after it.
   */
  close(): Promise<void>;
}

export interface ListenOptions {
  service: 'gateway' | 'admin';
  host: string;
  port: number;
  logger: Logger;
  shutdownTimeoutMs: number;
}

/** A Node request handler; Koa's `app.callback()` returns a promise that settles when it is done. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<unknown>;

/**
 * After the drain timeout cuts the last connections, the handlers still running see their request
 * aborted and unwind (removing what they stored). They get this long before the database closes.
 */
export const UNWIND_GRACE_MS = 2000;

/** Seconds a client is told to wait before retrying on another instance. */
const DRAIN_RETRY_AFTER_SECONDS = 1;

function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** True when every promise settled within `ms`. */
async function settledWithin(promises: Iterable<Promise<void>>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.all(promises).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer to a request that arrives on an open connection while the server drains. */
function refuseWhileDraining(res: ServerResponse): void {
  const problem = toProblem(
    new AppError('service_unavailable', 'The service is shutting down. Retry later.', {
      retryAfter: DRAIN_RETRY_AFTER_SECONDS,
    }),
  );
  const body = JSON.stringify(problem);
  res.writeHead(problem.status, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS),
    Connection: 'close',
  });
  res.end(body);
}

/** Listens with a request handler and logs the one `listening` line the contract promises. */
export async function listen(handler: RequestHandler, options: ListenOptions): Promise<RunningServer> {
  // Each in-flight request until both its handler has returned and its response is closed.
  const inFlight = new Map<ServerResponse, Promise<void>>();
  // The same, by connection: a parser error on a connection waits for the answers already begun.
  const openBySocket = new WeakMap<Duplex, Set<OpenExchange>>();
  let draining = false;

  const server = createServer((req, res) => {
    if (draining) {
      refuseWhileDraining(res);
      return;
    }
    // Done once both the handler settled and the response closed. Counted down rather than made of
    // promises (one per request instead of seven): this runs for every request (issue #37).
    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const exchange: OpenExchange = {
      get complete() {
        return req.complete;
      },
      answered: done,
    };
    let openOnSocket = openBySocket.get(req.socket);
    if (openOnSocket === undefined) {
      openOnSocket = new Set<OpenExchange>();
      openBySocket.set(req.socket, openOnSocket);
    }
    openOnSocket.add(exchange);
    inFlight.set(res, done);
    let waitingFor = 2;
    const settle = () => {
      if (--waitingFor === 0) {
        inFlight.delete(res);
        openOnSocket.delete(exchange);
        resolveDone();
      }
    };
    res.once('close', settle);
    Promise.resolve(handler(req, res)).then(settle, settle);
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    answerClientError(error, socket, [...(openBySocket.get(socket) ?? [])]);
  });
  // Slow clients must not hold a connection forever; uploads of 25 MiB still fit comfortably.
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = originOf(server.address() as AddressInfo);
  const { logger, service } = options;
  logger.info({ service, url }, 'listening');

  const drain = async (): Promise<void> => {
    draining = true;
    logger.info({ service, inFlight: inFlight.size }, 'draining');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Idle keep-alive connections would otherwise keep close() waiting.
    server.closeIdleConnections();
    for (const res of inFlight.keys()) {
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
      }
    }
    if (!(await settledWithin(inFlight.values(), options.shutdownTimeoutMs))) {
      logger.warn({ service, inFlight: inFlight.size }, 'drain timeout: closing the remaining connections');
    }
    server.closeAllConnections();
    if (!(await settledWithin(inFlight.values(), UNWIND_GRACE_MS))) {
      logger.warn({ service, inFlight: inFlight.size }, 'handlers still running after the drain');
    }
    await closed;
    logger.info({ service }, 'drained');
  };

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= drain();
    return closing;
  };
  return { server, url, close };
}
