import type { Server } from 'node:http';
import { listen } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import { buildAdminApp } from './app.js';

export interface AdminServer {
  server: Server;
  /** `http://host:port`, no path. */
  url: string;
  /** Stops accepting, waits for in-flight requests (at most SHUTDOWN_TIMEOUT_MS), then stops Apollo. */
  close(): Promise<void>;
}

export interface StartAdminOptions {
  /** The gateway's listening origin, when it runs in the same process (PUBLIC_GATEWAY_URL wins). */
  gatewayUrl?: string;
}

/** Starts the admin API on HOST:ADMIN_PORT; logs one `listening` line with its URL. */
export async function startAdmin(services: Services, options: StartAdminOptions = {}): Promise<AdminServer> {
  const { config, logger } = services;
  // Download links need the origin, which is known only after listening when ADMIN_PORT is 0.
  let listeningOrigin = '';
  const { gatewayUrl } = options;
  const { app, stop } = await buildAdminApp(services, {
    publicOrigin: () => config.publicAdminUrl ?? listeningOrigin,
    ...(gatewayUrl === undefined ? {} : { gatewayOrigin: () => config.publicGatewayUrl ?? gatewayUrl }),
  });
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
  const consoleUrl = `${config.publicAdminUrl ?? running.url}/`;
  logger.info({ service: 'admin', url: consoleUrl }, `console: open ${consoleUrl} and sign in`);

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
