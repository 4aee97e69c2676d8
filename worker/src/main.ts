// `npm run start:worker`: the worker as its own process (production shape, needs DATABASE_URL): the
// delivery loop (webhooks, notification e-mails), the retention schedule and the search indexer. Any number of workers
// may run against one database.
import { bootstrap, runProcess } from '@intake/shared/process';
import { exposureWarnings, publicOrigins } from '@intake/shared/public-urls';
import { createDeliveryWorker } from './delivery-worker.js';
import { createRetentionSchedule } from './retention/retention-schedule.js';
import { createSearchIndexer } from './search/search-indexer.js';

await runProcess(async () => {
  const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
  const deliveries = createDeliveryWorker(services);
  const retention = createRetentionSchedule(services);
  deliveries.start();
  const search = createSearchIndexer(services);
  retention.start();
  search.start();
  services.logger.info({ service: 'worker' }, 'delivery worker started');
  for (const warning of exposureWarnings(services.config, 'worker', publicOrigins(services.config))) {
    services.logger.warn({ service: 'worker' }, warning);
  }
  return { servers: [deliveries, retention, search], close: () => services.db.close(), logger: services.logger };
});
