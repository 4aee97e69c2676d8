// An in-process gateway on a scratch PostgreSQL database, with one site and form and their
// credentials. The gateway may reach the database through another address (the outage run's proxy);
// `inspector` always talks to the database directly, so checks work while the gateway's path is cut.
import { migrate, openDatabase, type Database } from '@intake/shared/db';
import type { Form } from '@intake/shared/entities';
import type { RunningServer } from '@intake/shared/http';
import { createLogger } from '@intake/shared/logger';
import { createServices, type Services } from '@intake/shared/services';
import { createScratchPostgres, makeForm, makeSite, testConfig } from '@intake/shared/test';
import { startGateway } from '@intake/gateway';

export interface ReliabilityGateway {
  services: Services;
  gateway: RunningServer;
  url: string;
  /** A direct connection to the same database, for checks. */
  inspector: Database;
  /** The scratch database's own URL. */
  databaseUrl: string;
  apiKey: string;
  token: string;
  form: Form;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** The URL the gateway uses, from the scratch database's URL (default: the same). */
  gatewayDatabaseUrl?: (databaseUrl: string) => string;
  env?: Record<string, string>;
}

// Rate limits would turn a load run into 429s: they are not what these runs measure.
const LOAD_ENV = { RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '1000000' };

export async function startReliabilityGateway(
  serverUrl: string,
  options: GatewayOptions = {},
): Promise<ReliabilityGateway> {
  const scratch = await createScratchPostgres(serverUrl);
  const inspector = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
  await migrate(inspector);
  const gatewayUrl = options.gatewayDatabaseUrl?.(scratch.url) ?? scratch.url;
  const config = testConfig({ ...LOAD_ENV, ...options.env, DATABASE_URL: gatewayUrl });
  // The production pool size (openConfiguredDatabase's default), not the tests' small one.
  const db = await openDatabase({ databaseUrl: gatewayUrl });
  // Connected before the gateway starts: closing an ORM while its first lazy connection is still
  // being made leaves a pooled client checked out for good (Kysely reads its pool after destroy).
  await db.em.fork().execute('select 1');
  const services = createServices(config, db, createLogger(config.logLevel));
  const { site, token } = await makeSite({ ...services, db: inspector });
  const form = await makeForm({ ...services, db: inspector }, site);
  const gateway = await startGateway(services);
  return {
    services,
    gateway,
    url: gateway.url,
    inspector,
    databaseUrl: scratch.url,
    apiKey: config.apiKey,
    token,
    form,
    close: async () => {
      await gateway.close();
      await db.close(true);
      await inspector.close(true);
      await scratch.drop();
    },
  };
}
