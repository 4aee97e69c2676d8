// A minimal clamd client over node:net: INSTREAM and PING on a unix socket or TCP. One connection per
// command, so a clamd that restarts is picked up by the next call with no state to reset.
// Protocol: https://docs.clamav.net/manual/Usage/Scanning.html#clamd ("z" commands end in NUL).
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createConnection } from 'node:net';
import type { Socket } from 'node:net';

/** Where clamd listens: a unix socket (preferred when set) or host + port. */
export interface ClamdTarget {
  socket?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
}

export interface ClamdReply {
  /** clamd's answer without its NUL terminator, e.g. `stream: OK`. */
  text: string;
  /** True when the answer came after the whole command was sent (a clean verdict needs it). */
  afterRequest: boolean;
}

/**
 * The scanner could not be asked or did not answer: the transport failed, never a verdict. The
 * scanner turns it into the catalogue's `scanner_unavailable`; a client never sees it as it is.
 */
export class ClamdError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClamdError';
  }
}

export type InstreamResult =
  { verdict: 'clean' } | { verdict: 'infected'; signature: string } | { verdict: 'error'; reason: string };

const CHUNK_SIZE = 64 * 1024;
// A real answer is one short line; anything longer is not clamd talking.
const MAX_REPLY_BYTES = 4096;
const END_OF_STREAM = Buffer.alloc(4);

/** Streams the file at `path` to clamd with INSTREAM; the file is read in 64 KiB chunks, never whole. */
export async function instream(target: ClamdTarget, path: string, timeoutMs: number): Promise<ClamdReply> {
  // Open first: a missing temp file is our fault, not the scanner's, and must not look like one.
  const file = await open(path, 'r');
  try {
    return await exchange(target, timeoutMs, async (socket, signal) => {
      await send(socket, 'zINSTREAM\0', signal);
      const chunks = file.createReadStream({ highWaterMark: CHUNK_SIZE, autoClose: false, signal });
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        const length = Buffer.allocUnsafe(4);
        length.writeUInt32BE(chunk.length);
        socket.write(length);
        await send(socket, chunk, signal);
      }
      await send(socket, END_OF_STREAM, signal);
    });
  } finally {
    await file.close();
  }
}

/** `PING` → `PONG` when clamd is up and answering. */
export async function ping(target: ClamdTarget, timeoutMs: number): Promise<ClamdReply> {
  return exchange(target, timeoutMs, (socket, signal) => send(socket, 'zPING\0', signal));
}

/** Reads an INSTREAM answer strictly: only the two documented verdict shapes count as verdicts. */
export function parseInstreamReply(text: string): InstreamResult {
  const line = text.trim();
  if (line === 'stream: OK') {
    return { verdict: 'clean' };
  }
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found?.[1]) {
    return { verdict: 'infected', signature: found[1] };
  }
  return { verdict: 'error', reason: line === '' ? 'empty answer' : `unexpected answer: ${line.slice(0, 200)}` };
}

/** Honours backpressure so a slow clamd never makes us buffer the file in memory. */
async function send(socket: Socket, data: string | Buffer, signal: AbortSignal): Promise<void> {
  if (!socket.write(data)) {
    await once(socket, 'drain', { signal });
  }
}

function connect(target: ClamdTarget): Socket {
  if (target.socket) {
    return createConnection({ path: target.socket });
  }
  if (target.port === undefined) {
    throw new ClamdError('clamd target needs a socket path or a port');
  }
  return createConnection({ host: target.host ?? '127.0.0.1', port: target.port });
}

/**
 * One command on one connection: `request` writes it while we collect the answer, which ends at the
 * first NUL or when clamd closes. The whole exchange (connect, send, scan, answer) has one deadline.
 */
function exchange(
  target: ClamdTarget,
  timeoutMs: number,
  request: (socket: Socket, signal: AbortSignal) => Promise<void>,
): Promise<ClamdReply> {
  const { promise, resolve, reject } = Promise.withResolvers<ClamdReply>();
  const controller = new AbortController();
  const received: Buffer[] = [];
  let receivedBytes = 0;
  let requestSent = false;
  let settled = false;

  const socket = connect(target);
  const timer = setTimeout(() => {
    settle(new ClamdError(`clamd gave no answer within ${timeoutMs} ms`));
  }, timeoutMs);

  function settle(outcome: ClamdReply | Error): void {
    if (settled) {
      return;
    }
    settled = true;
    clearTimeout(timer);
    // Stops the request writer and the file stream, then drops the connection.
    controller.abort();
    socket.destroy();
    if (outcome instanceof Error) {
      reject(outcome);
    } else {
      resolve(outcome);
    }
  }

  function answer(): ClamdReply {
    const bytes = Buffer.concat(received);
    const end = bytes.indexOf(0);
    return { text: bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8'), afterRequest: requestSent };
  }

  socket.on('connect', () => {
    request(socket, controller.signal).then(
      () => {
        requestSent = true;
      },
      (error: unknown) => {
        // After settle the writer fails with AbortError by design; before it, it is a read error of
        // our own file (socket errors arrive through the 'error' listener first).
        if (!controller.signal.aborted) {
          settle(error instanceof Error ? error : new Error(String(error)));
        }
      },
    );
  });
  socket.on('data', (chunk: Buffer) => {
    received.push(chunk);
    receivedBytes += chunk.length;
    if (chunk.includes(0)) {
      settle(answer());
    } else if (receivedBytes > MAX_REPLY_BYTES) {
      settle(new ClamdError('clamd answer too long'));
    }
  });
  socket.on('end', () => {
    // Some answers (e.g. to unknown commands) end with a newline and a close instead of a NUL.
    settle(receivedBytes > 0 ? answer() : new ClamdError('clamd closed the connection without an answer'));
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    settle(new ClamdError(`clamd connection failed (${error.code ?? error.message})`, { cause: error }));
  });
  socket.on('close', () => {
    settle(new ClamdError('clamd closed the connection without an answer'));
  });
  return promise;
}
