// `npm start`: both services in one process on the configured database (the embedded PGlite by
// default), after applying migrations and creating the admin of ADMIN_EMAIL/ADMIN_PASSWORD.
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { bootstrap, runProcess } from '@intake/shared';

await runProcess(async () => {
  const services = await bootstrap({ migrate: true });
  await ensureAdmin(services);
  const gateway = await startGateway(services);
  const admin = await startAdmin(services);
  return { servers: [gateway, admin], close: () => services.db.close() };
});
