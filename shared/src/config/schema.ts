import { z } from 'zod';

// Every environment variable Intake reads, validated and documented once (docs/configuration.md).
// Values arrive as strings from the environment or `.env`; this schema turns them into types.

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');
const httpUrl = z.string().regex(/^https?:\/\/[^/\s]+\S*$/, 'must be an http:// or https:// URL');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

/** An http(s) origin (a trailing / is dropped) that can be opened from elsewhere: no path, never 0.0.0.0. */
const publicOrigin = (example: string) =>
  optionalText
    .transform((value) => value?.trim().replace(/\/$/, ''))
    .refine((value) => value === undefined || /^https?:\/\/[^/\s?#@]+$/.test(value), {
      message: `must be an origin such as ${example} (no path)`,
    })
    .refine((value) => value === undefined || !/^https?:\/\/(0\.0\.0\.0|\[::\])(:\d+)?$/.test(value), {
      message: 'must be an address people can open, not 0.0.0.0 or [::] (a bind address)',
    });

export const environmentSchema = z.object({
  NODE_ENV: z.string().default('development'),
  /** Bind address of both services. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Intake gateway port; 0 = any free port. */
  GATEWAY_PORT: port.default(3000),
  /** Admin GraphQL API port; 0 = any free port. */
  ADMIN_PORT: port.default(4000),
  /** Embedded database (DATA_DIR/db) and local file storage (DATA_DIR/files). */
  DATA_DIR: z.string().min(1).default('./data'),
  /** postgres://… to use a PostgreSQL server; unset: embedded PGlite. */
  DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
    message: 'must start with postgres:// or postgresql://',
  }),
  /** Global application key, compared with the X-KEY-SERVICE header. */
  API_KEY: z.string({ error: 'is required' }).min(1, 'is required'),
  /** HMAC key of site tokens (HS256); admin tokens and download links use keys derived from it. */
  JWT_SECRET: z.string({ error: 'is required' }).min(1, 'is required'),
  /** 32-byte key (64 hex characters or base64) for the AES-256-CBC payload of site tokens. */
  TOKEN_ENCRYPTION_KEY: z.string({ error: 'is required' }).min(1, 'is required'),
  /** When both are set and that admin does not exist, it is created at start. */
  ADMIN_EMAIL: optionalText.refine(
    (value) => value === undefined || z.email().safeParse(value).success || /^[^@\s]+@localhost$/.test(value),
    {
      message: 'must be an e-mail address',
    },
  ),
  ADMIN_PASSWORD: optionalText,
  /** File storage driver. */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** STORAGE=s3: the bucket (required); Intake's own, since the sweep removes key-shaped objects with no row. */
  S3_BUCKET: optionalText,
  /** An S3-compatible server (MinIO, Ceph, …); unset: AWS. */
  S3_ENDPOINT: optionalText.refine((value) => value === undefined || /^https?:\/\/[^/]+/.test(value), {
    message: 'must be a URL such as https://s3.example.com',
  }),
  /** Default us-east-1. */
  S3_REGION: optionalText,
  /** Bucket in the path (http://host/bucket/key), as most S3-compatible servers need. */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** S3 credentials; unset: the SDK's default chain (environment, shared files, instance role). */
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  AWS_SESSION_TOKEN: optionalText,
  /** Stored objects with no row are removed once older than this (must exceed the longest request). */
  ORPHAN_SWEEP_GRACE_SECONDS: nonNegativeInt.default(3600),
  /** How often the gateway sweeps orphans after the sweep at start; 0 = only at start. */
  ORPHAN_SWEEP_INTERVAL_SECONDS: nonNegativeInt.default(900),
  /** Scan every file with ClamAV before storage. */
  CLAMAV_ENABLED: flag.default(false),
  CLAMAV_SOCKET: optionalText,
  CLAMAV_HOST: optionalText,
  CLAMAV_PORT: port.optional(),
  /** Limits of one submission. */
  MAX_FILE_SIZE: positiveInt.default(10 * 1024 * 1024),
  MAX_FILES: nonNegativeInt.default(10),
  MAX_BODY_SIZE: positiveInt.default(25 * 1024 * 1024),
  /** Bytes of a JSON or urlencoded body (bodies without files): parsed whole in memory, so kept small. */
  MAX_FORM_BODY_SIZE: positiveInt.default(1024 * 1024),
  /** How long a request body may take to arrive once the gateway reads it; slower is 408. */
  BODY_TIMEOUT_MS: positiveInt.max(110_000).default(60_000),
  /** Browser posts (docs/static-sites.md): bytes per request, bytes per file, files; a form may set its own. */
  BROWSER_MAX_BODY_SIZE: positiveInt.default(10 * 1024 * 1024),
  BROWSER_MAX_FILE_SIZE: positiveInt.default(5 * 1024 * 1024),
  BROWSER_MAX_FILES: nonNegativeInt.default(3),
  /** Browser posts per visitor address per minute, refused ones included; 0 turns it off. */
  BROWSER_POSTS_PER_MINUTE: nonNegativeInt.default(10),
  /** Accepted browser posts per form per minute; 0 turns it off. */
  BROWSER_FORM_POSTS_PER_MINUTE: nonNegativeInt.default(60),
  /** Accepted submissions per site per minute; 0 turns it off. */
  RATE_LIMIT_PER_MINUTE: nonNegativeInt.default(600),
  /** Failed authentications per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: nonNegativeInt.default(30),
  /**
   * Gateway processes `npm run start:gateway` runs on one port (node:cluster); more than 1 needs
   * DATABASE_URL, and REDIS_URL while a rate limit is on, so the processes share their counts.
   */
  GATEWAY_PROCESSES: positiveInt.max(64).default(1),
  /**
   * Most submissions the gateway writes in one statement and commit (group commit,
   * docs/performance.md); 1 writes each alone.
   */
  SUBMISSION_GROUP_MAX: positiveInt.max(1000).default(64),
  /**
   * How long a group that waited behind another may stay open for more writes; 0: none. A lone
   * request on an idle gateway never waits for it.
   */
  SUBMISSION_GROUP_WINDOW_MS: nonNegativeInt.max(100).default(0),
  /** Set: rate limits are shared by every gateway process through that Redis. */
  REDIS_URL: optionalText,
  /** Prefix of every Redis key, so deployments (and test runs) sharing one Redis do not collide. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:._-]{1,64}$/, 'must be 1 to 64 letters, digits, ":", ".", "_" or "-"')
    .default('intake'),
  /** siteverify endpoints of the CAPTCHA providers (configuration, so tests can point them at a stub). */
  CAPTCHA_TURNSTILE_VERIFY_URL: httpUrl.default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  CAPTCHA_HCAPTCHA_VERIFY_URL: httpUrl.default('https://api.hcaptcha.com/siteverify'),
  /** reCAPTCHA v2 and v3 share one endpoint. */
  CAPTCHA_RECAPTCHA_VERIFY_URL: httpUrl.default('https://www.google.com/recaptcha/api/siteverify'),
  /** Deadline of one CAPTCHA verification; past it the provider counts as unavailable. */
  CAPTCHA_TIMEOUT_MS: positiveInt.default(5000),
  /** Honour X-Forwarded-For for the client address (behind a trusted proxy only). */
  TRUST_PROXY: flag.default(false),
  /** With TRUST_PROXY: proxies in front that append to X-Forwarded-For; the client is that many entries from the right. */
  TRUST_PROXY_HOPS: positiveInt.default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Archive inspection limits; unset keeps the gateway's documented defaults (docs/configuration.md). */
  ARCHIVE_MAX_ENTRIES: positiveInt.optional(),
  ARCHIVE_MAX_UNCOMPRESSED_BYTES: positiveInt.optional(),
  ARCHIVE_MAX_RATIO: positiveInt.optional(),
  ARCHIVE_RATIO_GRACE_BYTES: nonNegativeInt.optional(),
  ARCHIVE_MAX_DEPTH: positiveInt.optional(),
  /**
   * Where people reach Intake (docs/configuration.md#public-addresses): the console at it, the
   * gateway following it. Every link the product writes starts with one of the two.
   */
  PUBLIC_URL: publicOrigin('https://intake.example.com'),
  /** Overrides the console's and admin API's origin (download links, invitations, passkeys, OIDC). */
  PUBLIC_ADMIN_URL: publicOrigin('https://admin.example.com'),
  /** Overrides the gateway's origin (the endpoint URLs, examples and form code the console shows). */
  PUBLIC_GATEWAY_URL: publicOrigin('https://intake.example.com'),
  /** Lifetime of a signed download link. */
  DOWNLOAD_URL_TTL_SECONDS: positiveInt.default(300),
  /** Audit log entries older than this are deleted by the worker; at most 100 years. */
  AUDIT_RETENTION_DAYS: positiveInt.max(36_500).default(365),
  /** A file each new signed audit checkpoint is appended to, one JWS a line: a witness outside the database. */
  AUDIT_WITNESS_FILE: optionalText,
  /**
   * Key that signs submission receipts: a private Ed25519 JWK, or a JSON array whose first key signs
   * and whose others are retired keys still published (docs/receipts.md). Unset: a key made on first
   * start in DATA_DIR/receipt-keys.json.
   */
  RECEIPT_SIGNING_KEY: optionalText,
  /** A retired signing key's public key is published this long after it was retired; at most 100 years. */
  RECEIPT_KEY_RETENTION_DAYS: positiveInt.max(36_500).default(3650),
  /** Lifetime of the signed download links written into a submission export (CSV cells, JSON). */
  EXPORT_DOWNLOAD_URL_TTL_SECONDS: positiveInt.default(24 * 60 * 60),
  /** Lifetime of an admin login token. */
  ADMIN_TOKEN_TTL_SECONDS: positiveInt.default(12 * 60 * 60),
  /** How long shutdown waits for in-flight requests before closing anyway. */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** Webhooks may reach loopback, private, link-local and metadata addresses (tests, trusted networks). */
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /** Deadline of one webhook request: connect, send, and the receiver's answer. */
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  /** Lifetime of the signed download links in a webhook payload. */
  WEBHOOK_DOWNLOAD_URL_TTL_SECONDS: positiveInt.default(24 * 60 * 60),
  /** How often an idle delivery worker looks for due deliveries. */
  DELIVERY_POLL_INTERVAL_MS: positiveInt.default(1000),
  /** How long a claimed delivery stays with its worker; a dead worker's claim is retried after it. */
  DELIVERY_LEASE_MS: positiveInt.default(60_000),
  /** smtp:// or smtps:// server for notification e-mails (credentials in the URL); unset: none sent. */
  SMTP_URL: optionalText.refine((value) => value === undefined || /^smtps?:\/\/[^\s]+$/.test(value), {
    message: 'must be a URL such as smtp://user:password@mail.example.com:587',
  }),
  /** Sender of notification e-mails. */
  SMTP_FROM: z.string().min(3).default('Intake <intake@localhost>'),
  /** Confirmations sent to one address per hour, across every form of the instance. */
  CONFIRMATION_MAX_PER_ADDRESS_PER_HOUR: positiveInt.default(3),
  /** Confirmations sent for one form per hour. */
  CONFIRMATION_MAX_PER_FORM_PER_HOUR: positiveInt.default(100),
  /**
   * Single sign-on (docs/single-sign-on.md): the OpenID provider's issuer; unset turns it off. https://,
   * or http:// on a loopback address only (a provider on the same machine, as in the tests).
   */
  OIDC_ISSUER_URL: optionalText.refine(
    (value) =>
      value === undefined ||
      /^https:\/\/[^/\s]+\S*$/.test(value) ||
      /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/\S*)?$/.test(value),
    { message: 'must be an https:// URL (http:// only on a loopback address)' },
  ),
  /** The client registered at the provider for Intake. */
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  /** Scopes asked for; `openid` and `email` are needed to match a member. */
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile'),
  /** Shown on the sign-in button: "Sign in with <name>". */
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).default('single sign-on'),
  /** Comma-separated e-mail domains that may sign in this way; empty: any. */
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  /** An unknown person with a verified e-mail: `refuse` them, or make them a `member` with no site grants. */
  OIDC_NEW_MEMBERS: z.enum(['refuse', 'member']).default('refuse'),
});

export type Environment = z.infer<typeof environmentSchema>;
