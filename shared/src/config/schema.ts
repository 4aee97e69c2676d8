import { z } from 'zod';

// Every environment variable Intake reads, validated and documented once (CONTRACT section 2).
// Values arrive as strings from the environment or `.env`; this schema turns them into types.

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

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
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText,
  S3_REGION: optionalText,
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** Scan every file with ClamAV before storage. */
  CLAMAV_ENABLED: flag.default(false),
  CLAMAV_SOCKET: optionalText,
  CLAMAV_HOST: optionalText,
  CLAMAV_PORT: port.optional(),
  /** Limits of one submission. */
  MAX_FILE_SIZE: positiveInt.default(10 * 1024 * 1024),
  MAX_FILES: nonNegativeInt.default(10),
  MAX_BODY_SIZE: positiveInt.default(25 * 1024 * 1024),
  /** Accepted submissions per site per minute; 0 turns it off. */
  RATE_LIMIT_PER_MINUTE: nonNegativeInt.default(600),
  /** Failed authentications per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: nonNegativeInt.default(30),
  /** Set: rate limits are shared by every gateway process through that Redis. */
  REDIS_URL: optionalText,
  /** Honour X-Forwarded-For for the client address (behind a trusted proxy only). */
  TRUST_PROXY: flag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Archive inspection limits; unset keeps the gateway's documented defaults (see README). */
  ARCHIVE_MAX_ENTRIES: positiveInt.optional(),
  ARCHIVE_MAX_UNCOMPRESSED_BYTES: positiveInt.optional(),
  ARCHIVE_MAX_RATIO: positiveInt.optional(),
  ARCHIVE_RATIO_GRACE_BYTES: nonNegativeInt.optional(),
  ARCHIVE_MAX_DEPTH: positiveInt.optional(),
  /** Origin of the admin API as clients reach it (for download links); default: its listening URL. */
  PUBLIC_ADMIN_URL: optionalText.refine((value) => value === undefined || /^https?:\/\/[^/]+$/.test(value), {
    message: 'must be an origin such as https://admin.example.com (no path)',
  }),
  /** Lifetime of a signed download link. */
  DOWNLOAD_URL_TTL_SECONDS: positiveInt.default(300),
  /** Lifetime of an admin login token. */
  ADMIN_TOKEN_TTL_SECONDS: positiveInt.default(12 * 60 * 60),
  /** How long shutdown waits for in-flight requests before closing anyway. */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
});

export type Environment = z.infer<typeof environmentSchema>;
