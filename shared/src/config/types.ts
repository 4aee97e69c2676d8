import type { Environment } from './schema.js';

/** The validated configuration, in the shape the code uses. */
export interface Config {
  production: boolean;
  host: string;
  gatewayPort: number;
  adminPort: number;
  /** Absolute. */
  dataDir: string;
  databaseUrl: string | undefined;
  apiKey: string;
  jwtSecret: string;
  tokenEncryptionKey: Buffer;
  admin: { email: string; password: string } | undefined;
  storage: { driver: Environment['STORAGE'] };
  clamav: { enabled: boolean; socket: string | undefined; host: string | undefined; port: number | undefined };
  limits: { maxFileSize: number; maxFiles: number; maxBodySize: number };
  rateLimits: {
    submissionsPerMinute: number;
    authFailuresPerMinute: number;
    redisUrl: string | undefined;
    trustProxy: boolean;
  };
  /** Only the archive limits that were set; the gateway fills in its defaults. */
  archiveLimits: Partial<{
    maxEntries: number;
    maxTotalUncompressedBytes: number;
    maxRatio: number;
    ratioGraceBytes: number;
    maxNestingDepth: number;
  }>;
  logLevel: Environment['LOG_LEVEL'];
  publicAdminUrl: string | undefined;
  downloadUrlTtlSeconds: number;
  adminTokenTtlSeconds: number;
  shutdownTimeoutMs: number;
}
