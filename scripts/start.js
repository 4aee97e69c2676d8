// `npm start`: both services in one process on the configured database (the embedded PGlite by
// default), after applying migrations and creating the admin of ADMIN_EMAIL/ADMIN_PASSWORD, with
// the delivery worker (webhooks, notification e-mails), the retention schedule and the search
// indexer beside them.
import './check-node.js';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { keepWasmOnBaselineCompiler } from '@intake/shared/db';
import { bootstrap, runProcess } from '@intake/shared/process';
import { createDeliveryWorker, createRetentionSchedule, createSearchIndexer } from '@intake/worker';

// Before PGlite's WebAssembly is compiled: TurboFan would need about 600 MB for PostgreSQL's SQL
// parser alone, more than this whole process otherwise holds (docs/performance.md).
keepWasmOnBaselineCompiler();

await runProcess(async () => {
  const services = await bootstrap({ migrate: true });
  await ensureAdmin(services);
  const gateway = await startGateway(services);
  const admin = await startAdmin(services, { gatewayUrl: gateway.url });
  // Webhooks and notification e-mails; download links go to the admin's public origin (PUBLIC_URL).
  const worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.origins().admin });
  const retention = createRetentionSchedule(services);
  worker.start();
  // New submissions' search rows, off the request path (docs/decisions/search-off-request-path.md).
  const search = createSearchIndexer(services);
  retention.start();
  search.start();
  return {
    servers: [gateway, admin, worker, retention, search],
    close: () => services.db.close(),
    logger: services.logger,
  };
});
