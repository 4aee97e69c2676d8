import { listen, type RunningServer, type Services } from '@intake/shared';
import { createGatewayApp } from './app.js';
import { closeSevenZipPool } from './files/archive/sevenzip-pool.js';

export { createGatewayApp } from './app.js';

/** Starts the gateway on HOST:GATEWAY_PORT; `close()` drains requests, then stops the scanner and the archive workers. */
export async function startGateway(services: Services): Promise<RunningServer> {
  const { app, scanner } = createGatewayApp(services);
  const running = await listen(app.callback(), {
    service: 'gateway',
    host: services.config.host,
    port: services.config.gatewayPort,
    logger: services.logger,
    shutdownTimeoutMs: services.config.shutdownTimeoutMs,
  });
  return {
    ...running,
    close: async () => {
      await running.close();
      await scanner.close?.();
      await closeSevenZipPool();
    },
  };
}
