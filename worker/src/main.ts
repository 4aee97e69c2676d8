// `npm run start:worker`: the delivery worker as its own process (production shape, needs
// DATABASE_URL). Any number of workers may run against one database.
import { bootstrap, runProcess } from '@intake/shared/process';
import { createDeliveryWorker } from './worker.js';

await runProcess(async () => {
  const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
  const worker = createDeliveryWorker(services);
  worker.start();
  services.logger.info({ service: 'worker' }, 'delivery worker started');
  return { servers: [worker], close: () => services.db.close(), logger: services.logger };
});
