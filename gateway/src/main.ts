// `npm run start:gateway`: the gateway as its own process (production shape, needs DATABASE_URL).
import { bootstrap, runProcess } from '@intake/shared';
import { startGateway } from './index.js';

await runProcess(async () => {
  const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
  const gateway = await startGateway(services);
  return { servers: [gateway], close: () => services.db.close() };
});
