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
