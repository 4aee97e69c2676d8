import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, toProblem, type ErrorCode } from '../errors/index.js';

// Not an ES import of `node:http`: see listen.ts.
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * Node's HTTP parser refuses a request before any handler sees it: a request line and headers over
 * 16 KiB (431), a malformed request (400), a request whose headers never finish (408). Left to
 * Node, the answer is a bare status line without a body; a client of ours gets a catalogued
 * problem document like every other refusal.
 */
const PARSER_REFUSALS: Record<string, { code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    detail: 'The request line and headers together are over 16 KiB.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'body_timeout',
    detail: 'The request did not arrive in time.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    code: 'payload_too_large',
    detail: 'The chunk extensions are over the limit.',
  },
};

const MALFORMED = { code: 'request_invalid', detail: 'The HTTP request is malformed.' } as const;

/** The raw HTTP/1.1 answer to a request the parser refused, closing the connection. */
export function clientErrorResponse(errorCode: string | undefined): string {
  const { code, detail } = PARSER_REFUSALS[errorCode ?? ''] ?? MALFORMED;
  const problem = toProblem(new AppError(code, detail));
  const body = JSON.stringify(problem);
  return (
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** A request the server has begun to handle on a connection, until its response is closed. */
export interface OpenExchange {
  /** True once the parser read the whole request: its handler may store it. */
  readonly complete: boolean;
  readonly answered: Promise<void>;
}

// The parser repeats its error for every later packet on the connection; it is answered once.
const refusedSockets = new WeakSet<Duplex>();

/**
 * The server's `clientError` listener: answers with problem details where the socket still can.
 *
 * Requests read whole before the bad bytes (a valid request, then garbage in the same packet) have
 * already gone to their handlers, which may store them: their answers go out first, in order, and
 * the refusal follows them before the connection closes. A client is never left without the 201
 * of a submission that was stored. A request the parser cut short cannot be stored (its body never
 * ends); it is closed with the refusal.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  open: readonly OpenExchange[] = [],
): void {
  if (refusedSockets.has(socket)) {
    return;
  }
  refusedSockets.add(socket);
  // A reset connection has nobody left to read an answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const begun = open.filter((exchange) => exchange.complete);
  if (begun.length === 0) {
    refuseNow(error, socket, open.length > 0);
    return;
  }
  void Promise.all(begun.map((exchange) => exchange.answered)).then(() => {
    if (socket.writable) {
      socket.end(clientErrorResponse(error.code));
    } else {
      socket.destroy();
    }
  });
}

function refuseNow(error: Error & { code?: string }, socket: Duplex, responseOpen: boolean): void {
  // On a connection whose response has begun, a raw answer could land mid-stream (Node's own
  // handler makes the same check).
  const bytesWritten = (socket as Partial<Socket>).bytesWritten ?? 0;
  if (responseOpen && bytesWritten > 0) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error.code));
}
