import { mkdirSync } from 'node:fs';
import { deriveAuditChainKey, migrateAuditedDatabase } from '../audit/index.js';
import { ensureEnvFile } from '../config/env-file.js';
import { parseConfig, readEnvironment } from '../config/load-config.js';
import type { Database } from '../db/orm.js';
import { createLogger, type Logger } from '../logger/index.js';
import { createServices, openConfiguredDatabase, type Services } from '../services/index.js';

export interface BootstrapOptions {
  /** Apply pending migrations before serving (the single-process start and `migrate`). */
  migrate: boolean;
  /** Refuse to run on the embedded database (a service started as its own process). */
  requireDatabaseUrl?: boolean;
}

/**
 * The start of every process: `.env` (generated on a first start outside production), validated
 * config, logger, database, migrations. Any failure here ends the process with a clear message:
 * nothing runs half-initialised.
 */
export async function bootstrap(options: BootstrapOptions): Promise<Services> {
  // Before anything is written: the embedded database, stored files, uploads in progress and .env
  // hold submitted data and secrets, so nothing this process creates is readable by other users.
  process.umask(0o077);
  const cwd = process.cwd();
  const written = ensureEnvFile(cwd, process.env.NODE_ENV);
  const config = parseConfig(readEnvironment(cwd));
  const logger = createLogger(config.logLevel);
  if (written) {
    logger.info(
      { path: written },
      'generated .env with fresh secrets and an admin login (see ADMIN_EMAIL and ADMIN_PASSWORD there)',
    );
  }
  if (options.requireDatabaseUrl && !config.databaseUrl) {
    throw new Error(
      'DATABASE_URL: required when a service runs as its own process (the embedded database cannot be shared)',
    );
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let db: Database | undefined;
  try {
    db = await openConfiguredDatabase(config);
    if (options.migrate) {
      // Entries from before the audit chain are chained with the migration that numbers them, never later.
      const applied = await migrateAuditedDatabase(db, deriveAuditChainKey(config.tokenEncryptionKey));
      if (applied.length > 0) {
        logger.info({ migrations: applied }, 'applied migrations');
      }
    }
  } catch (error) {
    await db?.close(true);
    throw error;
  }
  const services = createServices(config, db, logger);
  try {
    // Made (or read) now, so a bad RECEIPT_SIGNING_KEY or an unwritable DATA_DIR stops the start.
    await services.signingKeys();
  } catch (error) {
    await db.close(true);
    throw error;
  }
  return services;
}

export type { Logger };
