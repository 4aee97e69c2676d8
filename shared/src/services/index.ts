import { checkpointSigningWith, checkpointWitness, deriveAuditChainKey, type AuditChain } from '../audit/index.js';
import type { Config } from '../config/types.js';
import { openDatabase, type Database } from '../db/orm.js';
import type { Logger } from '../logger/index.js';
import { loadSigningKeys, type SigningKeys } from '../signing/index.js';
import { createSiteTokenCodec, type SiteTokenCodec } from '../site-token/index.js';
import { createStorage } from '../storage/index.js';
import type { Storage } from '../storage/storage.js';

// What a service needs to run, built once at start and passed down explicitly (no globals), so
// tests can build the same thing around a test database.
export interface Services {
  config: Config;
  db: Database;
  storage: Storage;
  logger: Logger;
  siteTokens: SiteTokenCodec;
  /** The receipt and checkpoint signing keys, loaded (or made) on first call and then kept. */
  signingKeys(): Promise<SigningKeys>;
  /** The audit log's chain key and checkpoint signing (docs/audit-log.md). */
  auditChain: AuditChain;
}

export function createServices(config: Config, db: Database, logger: Logger): Services {
  // One load shared by the receipts and the audit checkpoints.
  const signingKeys = loadedOnce(() => loadSigningKeys(config));
  return {
    config,
    db,
    logger,
    storage: createStorage(config),
    siteTokens: createSiteTokenCodec({ jwtSecret: config.jwtSecret, encryptionKey: config.tokenEncryptionKey }),
    signingKeys,
    auditChain: {
      ...deriveAuditChainKey(config.tokenEncryptionKey),
      signing: checkpointSigningWith(signingKeys),
      witness: checkpointWitness(logger, config.auditWitnessFile),
    },
  };
}

/** The first call's promise, kept; a failed load is tried again at the next call. */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/** Opens the configured database: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR/db. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: `${config.dataDir}/db` });
}
