import type { DestinationStream } from 'pino';
import { createLogger } from '../logger/index.js';
import { createServices, type Services } from '../services/index.js';
import { testConfig } from './config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * Services around a fresh test database (one per test file); `close()` ends both. `logDestination`
 * receives the log lines instead of stdout (tests that assert on what was logged).
 */
export async function createTestServices(
  env: Record<string, string> = {},
  { logDestination }: { logDestination?: DestinationStream } = {},
): Promise<Services & { testDb: TestDatabase; close(): Promise<void> }> {
  const testDb = await createTestDatabase();
  const config = testConfig(testDb.databaseUrl ? { ...env, DATABASE_URL: testDb.databaseUrl } : env);
  const services = createServices(config, testDb.db, createLogger(config.logLevel, {}, logDestination));
  return { ...services, testDb, close: () => testDb.close() };
}

/**
 * Services with another configuration over the database of `base`: a suite that tries a few
 * configurations needs no database of its own for each. `close()` leaves the database to `base`.
 */
export function reconfiguredTestServices(
  base: Services & { testDb: TestDatabase },
  env: Record<string, string> = {},
): Services & { testDb: TestDatabase; close(): Promise<void> } {
  const config = testConfig(base.testDb.databaseUrl ? { ...env, DATABASE_URL: base.testDb.databaseUrl } : env);
  const services = createServices(config, base.db, createLogger(config.logLevel, {}));
  return { ...services, testDb: base.testDb, close: async () => undefined };
}
