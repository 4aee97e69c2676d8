import type { Server } from 'node:http';
import { listen, type Services } from '@intake/shared';
import { buildAdminApp } from './app.js';

export interface AdminServer {
  server: Server;
  /** `http://host:port`, no path. */
  url: string;
  /** Stops accepting, waits for in-flight requests (at most SHUTDOWN_TIMEOUT_MS), then stops Apollo. */
  close(): Promise<void>;
}

/** Starts the admin API on HOST:ADMIN_PORT; logs one `listening` line with its URL. */
export async function startAdmin(services: Services): Promise<AdminServer> {
  const { config, logger } = services;
  // Download links need the origin, which is known only after listening when ADMIN_PORT is 0.
  let listeningOrigin = '';
  const { app, stop } = await buildAdminApp(services, { publicOrigin: () => config.publicAdminUrl ?? listeningOrigin });
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
  listeningOrigin = running.url;

  let closing: Promise<void> | undefined;
  return {
    server: running.server,
    url: running.url,
    close() {
      closing ??= running.close().then(stop);
      return closing;
    },
  };
}
