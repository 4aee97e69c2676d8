// `npm run start:admin`: the admin API as its own process (production shape, needs DATABASE_URL).
import { bootstrap, runProcess } from '@intake/shared/process';
import { ensureAdmin, startAdmin } from './index.js';

await runProcess(async () => {
  const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
  await ensureAdmin(services);
  const admin = await startAdmin(services);
  return { servers: [admin], close: () => services.db.close(), logger: services.logger };
});
