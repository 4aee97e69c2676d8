// `npm run start:gateway`: the gateway as its own process (production shape, needs DATABASE_URL), or
// GATEWAY_PROCESSES of them on one port (see cluster/gateway-processes.ts).
import cluster from 'node:cluster';
import { parseConfig, readEnvironment } from '@intake/shared/config';
import { createLogger } from '@intake/shared/logger';
import { bootstrap, runProcess, settleHeap } from '@intake/shared/process';
import { runGatewayProcesses } from './cluster/gateway-processes.js';
import { startGateway } from './index.js';

/** The pool's size and log level; on a configuration error, one process starts and reports it. */
function poolSettings(): { processes: number; logLevel: string } {
  try {
    const config = parseConfig(readEnvironment(process.cwd()));
    return { processes: config.gatewayProcesses, logLevel: config.logLevel };
  } catch {
    return { processes: 1, logLevel: 'info' };
  }
}

const pool = cluster.isPrimary ? poolSettings() : { processes: 1, logLevel: 'info' };
if (pool.processes > 1) {
  await runGatewayProcesses(pool.processes, createLogger(pool.logLevel));
} else {
  await runProcess(async () => {
    const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
    const gateway = await startGateway(services);
    // Listening: what loading the code left in V8's young generation goes back to the system.
    settleHeap();
    return { servers: [gateway], close: () => services.db.close(), logger: services.logger };
  });
}
