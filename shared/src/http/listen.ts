import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';

export interface RunningServer {
  server: Server;
  /** The origin, `http://host:port`, with the real port when 0 was asked for. */
  url: string;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes every connection. */
  close(): Promise<void>;
}

export interface ListenOptions {
  service: 'gateway' | 'admin';
  host: string;
  port: number;
  logger: Logger;
  shutdownTimeoutMs: number;
}

function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Listens with a request handler and logs the one `listening` line the contract promises. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: ListenOptions,
): Promise<RunningServer> {
  const server = createServer(handler);
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
  options.logger.info({ service: options.service, url }, 'listening');

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      const forceTimer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs);
      forceTimer.unref();
      server.close(() => {
        clearTimeout(forceTimer);
        resolve();
      });
      // Idle keep-alive connections would otherwise keep close() waiting.
      server.closeIdleConnections();
    });
    return closing;
  };
  return { server, url, close };
}
