import path from 'node:path';
import { listen, type RunningServer } from '@intake/shared/http';
import { exposureWarnings, publicOrigins } from '@intake/shared/public-urls';
import type { Services } from '@intake/shared/services';
import { startOrphanSweeper } from '@intake/shared/storage';
import { createGatewayApp } from './app.js';
import { closeSevenZipPool } from './files/archive/sevenzip-pool.js';
import { closeSanitiserPool } from './submission/sanitize-pool.js';
import type { SiteCache } from './site-cache/site-cache.js';
import type { RefusalTally } from './statistics/refusal-tally.js';

export { createGatewayApp } from './app.js';

export interface RunningGateway extends RunningServer {
  /** The site and form cache; `caching` tells whether its change feed is live. */
  siteCache: Pick<SiteCache, 'caching'>;
  /** Refusals counted for the statistics; `flush()` writes them now instead of within 5 s. */
  refusals: Pick<RefusalTally, 'flush' | 'pending'>;
}

/**
 * Starts the gateway on HOST:GATEWAY_PORT and the orphan sweeper; `close()` stops the sweeper,
 * drains requests, writes the refusal counts, then stops the scanner, the rate limits' Redis connection, the site change feed
 * and the archive and sanitiser workers.
 */
export async function startGateway(services: Services): Promise<RunningGateway> {
  const { app, scanner, rateLimits, siteCache, captcha, refusals } = createGatewayApp(services);
  // Bounded: with Redis down the gateway starts anyway, counting in memory. The change feed's first
  // attempt is awaited too, so a close right after the start cannot race it (see change-feed.ts).
  await Promise.all([rateLimits.ready(), siteCache.ready()]);
  const running = await listen(app.callback(), {
    service: 'gateway',
    host: services.config.host,
    port: services.config.gatewayPort,
    logger: services.logger,
    shutdownTimeoutMs: services.config.shutdownTimeoutMs,
  });
  const gatewayPort = Number(new URL(running.url).port);
  for (const warning of exposureWarnings(services.config, 'gateway', publicOrigins(services.config, { gatewayPort }))) {
    services.logger.warn({ service: 'gateway' }, warning);
  }
  // Objects and uploads left by a killed process: removed now and then periodically.
  const sweeper = startOrphanSweeper(services, {
    ...services.config.orphanSweep,
    uploadDir: path.join(services.config.dataDir, 'tmp'),
  });
  refusals.start();
  return {
    ...running,
    siteCache,
    refusals,
    close: async () => {
      await sweeper.stop();
      await running.close();
      // After the drain, so the last requests' refusals are in; before the database closes.
      await refusals.stop();
      await scanner.close?.();
      await rateLimits.close();
      await siteCache.close();
      await captcha.close();
      await closeSevenZipPool();
      await closeSanitiserPool();
    },
  };
}
