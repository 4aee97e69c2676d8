// The admin API under test in its own process (so its memory is its own): the real startAdmin on the
// database the runner chose (DATABASE_URL), migrated, with the bootstrap admin of ADMIN_EMAIL and
// ADMIN_PASSWORD. Configuration comes from the environment the runner sets, as in production.
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { parseConfig } from '@intake/shared/config';
import { migrate } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { createServices, openConfiguredDatabase } from '@intake/shared/services';
import { serveInChild } from '../child-protocol.js';

await serveInChild(async () => {
  const config = parseConfig(process.env);
  const db = await openConfiguredDatabase(config);
  await migrate(db);
  const services = createServices(config, db, createLogger(config.logLevel));
  await ensureAdmin(services);
  const admin = await startAdmin(services);
  return {
    url: admin.url,
    close: async () => {
      await admin.close();
      await db.close();
    },
  };
});
