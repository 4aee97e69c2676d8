import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDotEnv } from 'dotenv';
import { isStrongSecret, parseEncryptionKey } from '../secrets/index.js';
import { environmentSchema, type Environment } from './schema.js';
import type { Config, StorageConfig } from './types.js';

/**
 * Startup failure that names every bad variable (never their values). Not in the error catalogue
 * (shared/src/errors.ts): it ends the process before any client is served.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type RawEnvironment = Record<string, string | undefined>;

/** The `.env` of a folder merged under the real environment (the environment wins). */
export function readEnvironment(cwd: string, env: RawEnvironment = process.env): RawEnvironment {
  const file = path.join(cwd, '.env');
  const fromFile = existsSync(file) ? parseDotEnv(readFileSync(file)) : {};
  return { ...fromFile, ...env };
}

function definedOnly<T extends Record<string, number | undefined>>(values: T): Partial<{ [K in keyof T]: number }> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<{
    [K in keyof T]: number;
  }>;
}

function storageConfig(env: Environment): StorageConfig {
  if (env.STORAGE === 'local') {
    return { driver: 'local' };
  }
  // `.env` values never reach process.env, so the SDK's default chain would not see them there.
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          accessKeyId: env.AWS_ACCESS_KEY_ID,
          secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
        }
      : undefined;
  return {
    driver: 's3',
    bucket: env.S3_BUCKET ?? '',
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION ?? 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials,
  };
}

const SECRET_VARIABLES = ['API_KEY', 'JWT_SECRET', 'TOKEN_ENCRYPTION_KEY'] as const;
/** The admin password a production start accepts: 16 bytes of estimated randomness (the generated one has 24). */
export const MIN_ADMIN_PASSWORD_BYTES = 16;

/** Validates the whole environment once; throws ConfigError listing every problem. */
export function parseConfig(raw: RawEnvironment): Config {
  const result = environmentSchema.safeParse(raw);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  // Judged on the raw values, so one start-up error lists weak secrets beside missing ones.
  if ((raw.NODE_ENV ?? '') === 'production') {
    for (const name of SECRET_VARIABLES) {
      if (raw[name] && !isStrongSecret(raw[name])) {
        problems.push(`${name}: too weak for production (needs at least 32 bytes of randomness)`);
      }
    }
    // The bootstrap admin's password guards every site, token and submission: judged like a secret.
    if (raw.ADMIN_PASSWORD?.trim() && !isStrongSecret(raw.ADMIN_PASSWORD, MIN_ADMIN_PASSWORD_BYTES)) {
      problems.push(
        `ADMIN_PASSWORD: too weak for production (needs at least ${MIN_ADMIN_PASSWORD_BYTES} bytes of randomness, such as 22 random base64 characters)`,
      );
    }
  }
  if (!result.success) {
    throw new ConfigError(problems);
  }
  const env = result.data;
  const production = env.NODE_ENV === 'production';

  let encryptionKey: Buffer = Buffer.alloc(0);
  try {
    encryptionKey = parseEncryptionKey(env.TOKEN_ENCRYPTION_KEY);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (env.CLAMAV_ENABLED && !env.CLAMAV_SOCKET && !(env.CLAMAV_HOST && env.CLAMAV_PORT)) {
    problems.push('CLAMAV_SOCKET or CLAMAV_HOST and CLAMAV_PORT: required when CLAMAV_ENABLED=true');
  }
  if (env.STORAGE === 's3') {
    if (!env.S3_BUCKET) {
      problems.push('S3_BUCKET: required when STORAGE=s3');
    }
    if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
      problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither');
    }
  }
  // A claim must outlive the slowest attempt, or a second worker could send while the first still waits.
  if (env.DELIVERY_LEASE_MS < env.WEBHOOK_TIMEOUT_MS + 2000) {
    problems.push('DELIVERY_LEASE_MS: must be at least WEBHOOK_TIMEOUT_MS + 2000');
  }
  if (env.GATEWAY_PROCESSES > 1) {
    if (!env.DATABASE_URL) {
      problems.push('GATEWAY_PROCESSES: more than 1 needs DATABASE_URL (the embedded database cannot be shared)');
    }
    // Counting in memory, each process would allow the whole limit: N processes, N times the limit.
    const anyLimit = [
      env.RATE_LIMIT_PER_MINUTE,
      env.AUTH_FAILURES_PER_MINUTE,
      env.BROWSER_POSTS_PER_MINUTE,
      env.BROWSER_FORM_POSTS_PER_MINUTE,
    ].some((limit) => limit > 0);
    if (!env.REDIS_URL && anyLimit) {
      problems.push('GATEWAY_PROCESSES: more than 1 needs REDIS_URL while a rate limit is on (shared counts)');
    }
  }
  if (env.OIDC_ISSUER_URL && !env.OIDC_CLIENT_ID) {
    problems.push('OIDC_CLIENT_ID: required when OIDC_ISSUER_URL is set');
  }
  const allowedDomains = env.OIDC_ALLOWED_DOMAINS.split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter((domain) => domain !== '');
  if (allowedDomains.some((domain) => !/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(domain))) {
    problems.push('OIDC_ALLOWED_DOMAINS: must be e-mail domains separated by commas, such as example.com,example.org');
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }

  return {
    production,
    host: env.HOST,
    gatewayPort: env.GATEWAY_PORT,
    adminPort: env.ADMIN_PORT,
    gatewayProcesses: env.GATEWAY_PROCESSES,
    submissionGroup: { maxRows: env.SUBMISSION_GROUP_MAX, windowMs: env.SUBMISSION_GROUP_WINDOW_MS },
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    apiKey: env.API_KEY,
    jwtSecret: env.JWT_SECRET,
    tokenEncryptionKey: encryptionKey,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    storage: storageConfig(env),
    orphanSweep: {
      graceMs: env.ORPHAN_SWEEP_GRACE_SECONDS * 1000,
      intervalMs: env.ORPHAN_SWEEP_INTERVAL_SECONDS * 1000,
    },
    clamav: {
      enabled: env.CLAMAV_ENABLED,
      socket: env.CLAMAV_SOCKET,
      host: env.CLAMAV_HOST,
      port: env.CLAMAV_PORT,
    },
    limits: {
      maxFileSize: env.MAX_FILE_SIZE,
      maxFiles: env.MAX_FILES,
      maxBodySize: env.MAX_BODY_SIZE,
      maxFormBodySize: env.MAX_FORM_BODY_SIZE,
      bodyTimeoutMs: env.BODY_TIMEOUT_MS,
    },
    browser: {
      maxBodySize: env.BROWSER_MAX_BODY_SIZE,
      maxFileSize: env.BROWSER_MAX_FILE_SIZE,
      maxFiles: env.BROWSER_MAX_FILES,
    },
    rateLimits: {
      submissionsPerMinute: env.RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
      browserPostsPerMinute: env.BROWSER_POSTS_PER_MINUTE,
      browserFormPostsPerMinute: env.BROWSER_FORM_POSTS_PER_MINUTE,
      redisUrl: env.REDIS_URL,
      redisKeyPrefix: env.REDIS_KEY_PREFIX,
      trustProxy: env.TRUST_PROXY,
      trustProxyHops: env.TRUST_PROXY_HOPS,
    },
    archiveLimits: definedOnly({
      maxEntries: env.ARCHIVE_MAX_ENTRIES,
      maxTotalUncompressedBytes: env.ARCHIVE_MAX_UNCOMPRESSED_BYTES,
      maxRatio: env.ARCHIVE_MAX_RATIO,
      ratioGraceBytes: env.ARCHIVE_RATIO_GRACE_BYTES,
      maxNestingDepth: env.ARCHIVE_MAX_DEPTH,
    }),
    logLevel: env.LOG_LEVEL,
    publicUrl: env.PUBLIC_URL,
    publicAdminUrl: env.PUBLIC_ADMIN_URL,
    publicGatewayUrl: env.PUBLIC_GATEWAY_URL,
    downloadUrlTtlSeconds: env.DOWNLOAD_URL_TTL_SECONDS,
    exportDownloadUrlTtlSeconds: env.EXPORT_DOWNLOAD_URL_TTL_SECONDS,
    adminTokenTtlSeconds: env.ADMIN_TOKEN_TTL_SECONDS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    auditWitnessFile: env.AUDIT_WITNESS_FILE,
    receiptSigning: { key: env.RECEIPT_SIGNING_KEY, keyRetentionDays: env.RECEIPT_KEY_RETENTION_DAYS },
    captcha: {
      turnstileVerifyUrl: env.CAPTCHA_TURNSTILE_VERIFY_URL,
      hcaptchaVerifyUrl: env.CAPTCHA_HCAPTCHA_VERIFY_URL,
      recaptchaVerifyUrl: env.CAPTCHA_RECAPTCHA_VERIFY_URL,
      timeoutMs: env.CAPTCHA_TIMEOUT_MS,
    },
    delivery: {
      allowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE,
      webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
      downloadUrlTtlSeconds: env.WEBHOOK_DOWNLOAD_URL_TTL_SECONDS,
      pollIntervalMs: env.DELIVERY_POLL_INTERVAL_MS,
      leaseMs: env.DELIVERY_LEASE_MS,
      smtpUrl: env.SMTP_URL,
      smtpFrom: env.SMTP_FROM,
      confirmationsPerAddressPerHour: env.CONFIRMATION_MAX_PER_ADDRESS_PER_HOUR,
      confirmationsPerFormPerHour: env.CONFIRMATION_MAX_PER_FORM_PER_HOUR,
    },
    oidc:
      env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID
        ? {
            issuerUrl: env.OIDC_ISSUER_URL,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            scopes: env.OIDC_SCOPES,
            providerName: env.OIDC_PROVIDER_NAME,
            allowedDomains,
            newMembers: env.OIDC_NEW_MEMBERS,
          }
        : undefined,
  };
}
