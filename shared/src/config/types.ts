import type { Environment } from './schema.js';

/** Where the S3 driver stores objects. Credentials, when set, are passed to the client explicitly. */
export interface S3StorageConfig {
  driver: 's3';
  bucket: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export type StorageConfig = { driver: 'local' } | S3StorageConfig;

/** How the delivery worker sends webhooks and notification e-mails. */
export interface DeliveryConfig {
  allowPrivateAddresses: boolean;
  webhookTimeoutMs: number;
  downloadUrlTtlSeconds: number;
  pollIntervalMs: number;
  leaseMs: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Rate limits of confirmations to the submitter (docs/confirmations.md#rate-limits). */
  confirmationsPerAddressPerHour: number;
  confirmationsPerFormPerHour: number;
}

/** Where and how fast the gateway checks a visitor's CAPTCHA answer. */
export interface CaptchaConfig {
  turnstileVerifyUrl: string;
  hcaptchaVerifyUrl: string;
  recaptchaVerifyUrl: string;
  timeoutMs: number;
}

/** Single sign-on with an OpenID provider (set when OIDC_ISSUER_URL is). */
export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string;
  providerName: string;
  /** Lower-case e-mail domains that may sign in this way; empty: any. */
  allowedDomains: string[];
  newMembers: 'refuse' | 'member';
}

/** The validated configuration, in the shape the code uses. */
export interface Config {
  production: boolean;
  host: string;
  gatewayPort: number;
  adminPort: number;
  /** Processes of `npm run start:gateway` (node:cluster, one port). */
  gatewayProcesses: number;
  /** Group commit of submissions (docs/performance.md): most rows per group, and a group's window. */
  submissionGroup: { maxRows: number; windowMs: number };
  /** Absolute. */
  dataDir: string;
  databaseUrl: string | undefined;
  apiKey: string;
  jwtSecret: string;
  tokenEncryptionKey: Buffer;
  admin: { email: string; password: string } | undefined;
  storage: StorageConfig;
  /** Removal of stored objects that no row references (crash leftovers). */
  orphanSweep: { graceMs: number; intervalMs: number };
  clamav: { enabled: boolean; socket: string | undefined; host: string | undefined; port: number | undefined };
  limits: {
    maxFileSize: number;
    maxFiles: number;
    maxBodySize: number;
    maxFormBodySize: number;
    /** Deadline of a request body, from when the gateway starts reading it. */
    bodyTimeoutMs: number;
  };
  /** Defaults of browser posts (docs/static-sites.md); a form may set its own limits, never above `limits`. */
  browser: { maxBodySize: number; maxFileSize: number; maxFiles: number };
  rateLimits: {
    submissionsPerMinute: number;
    authFailuresPerMinute: number;
    /** Browser posts per visitor address per minute, refused ones included. */
    browserPostsPerMinute: number;
    /** Accepted browser posts per form per minute. */
    browserFormPostsPerMinute: number;
    redisUrl: string | undefined;
    redisKeyPrefix: string;
    trustProxy: boolean;
    /** Proxies in front that append to X-Forwarded-For (Koa's maxIpsCount). */
    trustProxyHops: number;
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
  /** PUBLIC_URL: the base of both public origins (shared/src/public-urls derives them). */
  publicUrl: string | undefined;
  /** PUBLIC_ADMIN_URL: the console's origin, overriding PUBLIC_URL. */
  publicAdminUrl: string | undefined;
  /** PUBLIC_GATEWAY_URL: the gateway's origin, overriding what follows from PUBLIC_URL. */
  publicGatewayUrl: string | undefined;
  downloadUrlTtlSeconds: number;
  /** Lifetime of the file download links inside an export. */
  exportDownloadUrlTtlSeconds: number;
  adminTokenTtlSeconds: number;
  shutdownTimeoutMs: number;
  /** Audit log entries older than this many days are pruned by the worker. */
  auditRetentionDays: number;
  /** AUDIT_WITNESS_FILE: where each new signed audit checkpoint is appended (docs/audit-log.md#a-witness). */
  auditWitnessFile: string | undefined;
  captcha: CaptchaConfig;
  /** Receipt signing keys (shared/src/signing): the RECEIPT_SIGNING_KEY value when set, and how long a retired key is published. */
  receiptSigning: { key: string | undefined; keyRetentionDays: number };
  /** Webhook and e-mail deliveries (the outbox worker). */
  delivery: DeliveryConfig;
  /** Single sign-on; undefined when OIDC_ISSUER_URL is unset. */
  oidc: OidcConfig | undefined;
}
