// The server under test: the real gateway (startGateway) on the database the runner chose —
// DATABASE_URL for PostgreSQL, or the embedded PGlite in DATA_DIR/db — with one site and one form
// made for the run. Configuration comes from the environment the runner sets, as in production.
import { parseConfig } from '@intake/shared/config';
import { migrate } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { createServices, openConfiguredDatabase } from '@intake/shared/services';
import { startGateway } from '@intake/gateway';
import { createBenchForm } from '../bench-form.js';
import { serveInChild } from '../child-protocol.js';

await serveInChild(async () => {
  const config = parseConfig(process.env);
  const db = await openConfiguredDatabase(config);
  await migrate(db);
  const services = createServices(config, db, createLogger(config.logLevel));
  const { site, form } = await createBenchForm(db);
  const gateway = await startGateway(services);
  return {
    url: gateway.url,
    details: { token: services.siteTokens.issue(site.id, site.controlCode), formCode: form.code },
    close: async () => {
      await gateway.close();
      await db.close();
    },
  };
});
