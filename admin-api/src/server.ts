import type { Server } from 'node:http';
import { listen } from '@intake/shared/http';
import { exposureWarnings, publicOrigins, type PublicOrigins } from '@intake/shared/public-urls';
import type { Services } from '@intake/shared/services';
import { buildAdminApp } from './app.js';

export interface AdminServer {
  server: Server;
  /** `http://host:port` as it listens, no path. */
  url: string;
  /** The public origins outside a request (the worker's links, the start line): never 0.0.0.0. */
  origins(): PublicOrigins;
  /** Stops accepting, waits for in-flight requests (at most SHUTDOWN_TIMEOUT_MS), then stops Apollo. */
  close(): Promise<void>;
}

export interface StartAdminOptions {
  /** The gateway's listening origin, when it runs in the same process: its real port (GATEWAY_PORT may be 0). */
  gatewayUrl?: string;
}

const portOf = (url: string | undefined): number | undefined =>
  url === undefined ? undefined : Number(new URL(url).port);

/** Starts the admin API on HOST:ADMIN_PORT; logs the `listening` line, then the address to open. */
export async function startAdmin(services: Services, options: StartAdminOptions = {}): Promise<AdminServer> {
  const { config, logger } = services;
  // Links need the real ports, known only after listening when a port is 0.
  const observed: { adminPort?: number; gatewayPort?: number } = {};
  const gatewayPort = portOf(options.gatewayUrl);
  if (gatewayPort !== undefined) {
    observed.gatewayPort = gatewayPort;
  }
  const observedPorts = () => ({ ...observed });
  const { app, stop, endStreams } = await buildAdminApp(services, { observedPorts });
  let running: Awaited<ReturnType<typeof listen>>;
  try {
    running = await listen(app.callback(), {
      service: 'admin',
      host: config.host,
      port: config.adminPort,
      logger,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  observed.adminPort = Number(new URL(running.url).port);
  const origins = () => publicOrigins(config, observedPorts());
  for (const warning of exposureWarnings(config, 'admin', origins())) {
    logger.warn({ service: 'admin' }, warning);
  }
  const consoleUrl = `${origins().admin}/`;
  logger.info({ service: 'admin', url: consoleUrl }, `console: open ${consoleUrl} and sign in`);

  let closing: Promise<void> | undefined;
  return {
    server: running.server,
    url: running.url,
    origins,
    close() {
      if (closing === undefined) {
        endStreams();
        closing = running.close().then(stop);
      }
      return closing;
    },
  };
}
