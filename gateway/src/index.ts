import path from 'node:path';
import { listen, startOrphanSweeper, type RunningServer, type Services } from '@intake/shared';
import { createGatewayApp } from './app.js';
import { closeSevenZipPool } from './files/archive/sevenzip-pool.js';
import type { SiteLookups } from './lookup/site-lookups.js';

export { createGatewayApp } from './app.js';

export interface RunningGateway extends RunningServer {
  /** The site and form cache; `caching` tells whether its change feed is live. */
  lookups: Pick<SiteLookups, 'caching'>;
}

/**
 * Starts the gateway on HOST:GATEWAY_PORT and the orphan sweeper; `close()` stops the sweeper,
 * drains requests, then stops the scanner, the rate limits' Redis connection, the site change feed
 * and the archive workers.
 */
export async function startGateway(services: Services): Promise<RunningGateway> {
  const { app, scanner, rateLimits, lookups, captcha } = createGatewayApp(services);
  // Bounded: with Redis down the gateway starts anyway, counting in memory. The change feed's first
  // attempt is awaited too, so a close right after the start cannot race it (see change-feed.ts).
  await Promise.all([rateLimits.ready(), lookups.ready()]);
  const running = await listen(app.callback(), {
    service: 'gateway',
    host: services.config.host,
    port: services.config.gatewayPort,
    logger: services.logger,
    shutdownTimeoutMs: services.config.shutdownTimeoutMs,
  });
  // Objects and uploads left by a killed process: removed now and then periodically.
  const sweeper = startOrphanSweeper(services, {
    ...services.config.orphanSweep,
    uploadDir: path.join(services.config.dataDir, 'tmp'),
  });
  return {
    ...running,
    lookups,
    close: async () => {
      await sweeper.stop();
      await running.close();
      await scanner.close?.();
      await rateLimits.close();
      await lookups.close();
      await captcha.close();
      await closeSevenZipPool();
    },
  };
}
