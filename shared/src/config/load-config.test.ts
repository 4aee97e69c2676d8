import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSecret } from '../secrets/index.js';
import { ensureEnvFile } from './env-file.js';
import { ConfigError, parseConfig, readEnvironment } from './load-config.js';

const secrets = () => ({
  API_KEY: generateSecret(32),
  JWT_SECRET: generateSecret(32),
  TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
});

function problemsOf(raw: Record<string, string>): string[] {
  try {
    parseConfig(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('applies the contract defaults', () => {
    const config = parseConfig(secrets());
    expect(config).toEqual(
      expect.objectContaining({
        host: '127.0.0.1',
        gatewayPort: 3000,
        adminPort: 4000,
        gatewayProcesses: 1,
        submissionGroup: { maxRows: 64, windowMs: 0 },
        databaseUrl: undefined,
        limits: {
          maxFileSize: 10485760,
          maxFiles: 10,
          maxBodySize: 26214400,
          maxFormBodySize: 1048576,
          bodyTimeoutMs: 60000,
        },
        logLevel: 'info',
        archiveLimits: {},
      }),
    );
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.rateLimits).toEqual(
      expect.objectContaining({
        submissionsPerMinute: 600,
        authFailuresPerMinute: 30,
        redisUrl: undefined,
        redisKeyPrefix: 'intake',
        trustProxy: false,
        trustProxyHops: 1,
      }),
    );
    expect(config.clamav.enabled).toBe(false);
  });

  it('names every bad variable at once, never its value', () => {
    const problems = problemsOf({
      ...secrets(),
      GATEWAY_PORT: 'http',
      MAX_FILES: '-1',
      DATABASE_URL: 'mysql://secret-host',
      LOG_LEVEL: 'loud',
      REDIS_KEY_PREFIX: 'two words',
    });
    const text = problems.join('\n');
    for (const name of ['GATEWAY_PORT', 'MAX_FILES', 'DATABASE_URL', 'LOG_LEVEL', 'REDIS_KEY_PREFIX']) {
      expect(text).toContain(name);
    }
    expect(text).not.toContain('secret-host');
  });

  it('requires the three secrets and a 32-byte encryption key', () => {
    expect(problemsOf({}).join('\n')).toMatch(/API_KEY[\s\S]*JWT_SECRET[\s\S]*TOKEN_ENCRYPTION_KEY/);
    const key = 'ab'.repeat(16);
    const problems = problemsOf({ ...secrets(), TOKEN_ENCRYPTION_KEY: key });
    expect(problems.join('\n')).toContain('TOKEN_ENCRYPTION_KEY');
    expect(problems.join('\n')).not.toContain(key);
  });

  it('refuses weak secrets in production only', () => {
    const weak = { API_KEY: 'changeme', JWT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: '00'.repeat(32) };
    expect(() => parseConfig(weak)).not.toThrow();
    const problems = problemsOf({ ...weak, NODE_ENV: 'production' }).join('\n');
    expect(problems).toContain('API_KEY');
    expect(problems).toContain('JWT_SECRET');
    expect(problems).toContain('TOKEN_ENCRYPTION_KEY');
    expect(() => parseConfig({ ...secrets(), NODE_ENV: 'production' })).not.toThrow();
  });

  it('refuses a weak ADMIN_PASSWORD in production, never echoing it', () => {
    for (const weak of ['change-me', 'correct horse battery staple', 'Passw0rd!Passw0rd!', 'a'.repeat(64)]) {
      const admin = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: weak };
      expect(() => parseConfig({ ...secrets(), ...admin })).not.toThrow();
      const problems = problemsOf({ ...secrets(), ...admin, NODE_ENV: 'production' }).join('\n');
      expect(problems).toContain('ADMIN_PASSWORD: too weak for production');
      expect(problems).not.toContain(weak);
    }
    const strong = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: generateSecret(24) };
    expect(parseConfig({ ...secrets(), ...strong, NODE_ENV: 'production' }).admin?.password).toBe(
      strong.ADMIN_PASSWORD,
    );
  });

  it('needs a clamd address when ClamAV is enabled', () => {
    expect(problemsOf({ ...secrets(), CLAMAV_ENABLED: 'true' }).join('\n')).toContain('CLAMAV_SOCKET');
    expect(
      parseConfig({ ...secrets(), CLAMAV_ENABLED: 'true', CLAMAV_HOST: 'clamav', CLAMAV_PORT: '3310' }).clamav,
    ).toEqual({
      enabled: true,
      socket: undefined,
      host: 'clamav',
      port: 3310,
    });
  });

  it('runs several gateway processes only on PostgreSQL, with Redis while a rate limit is on', () => {
    const postgres = { ...secrets(), DATABASE_URL: 'postgres://db/intake', GATEWAY_PROCESSES: '4' };
    expect(problemsOf({ ...secrets(), GATEWAY_PROCESSES: '2', REDIS_URL: 'redis://r' }).join('\n')).toMatch(
      /GATEWAY_PROCESSES: .*DATABASE_URL/,
    );
    expect(problemsOf(postgres).join('\n')).toMatch(/GATEWAY_PROCESSES: .*REDIS_URL/);
    expect(parseConfig({ ...postgres, REDIS_URL: 'redis://r' }).gatewayProcesses).toBe(4);
    expect(
      parseConfig({
        ...postgres,
        RATE_LIMIT_PER_MINUTE: '0',
        AUTH_FAILURES_PER_MINUTE: '0',
        BROWSER_POSTS_PER_MINUTE: '0',
        BROWSER_FORM_POSTS_PER_MINUTE: '0',
      }).gatewayProcesses,
    ).toBe(4);
    // The browser posts' limits are rate limits too: counted in memory, each process would allow them all.
    expect(problemsOf({ ...postgres, RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0' }).join('\n')).toMatch(
      /GATEWAY_PROCESSES: .*REDIS_URL/,
    );
    expect(problemsOf({ ...secrets(), GATEWAY_PROCESSES: '0' }).join('\n')).toContain('GATEWAY_PROCESSES');
  });

  it('reads archive limits only where they are set', () => {
    expect(parseConfig({ ...secrets(), ARCHIVE_MAX_ENTRIES: '50' }).archiveLimits).toEqual({ maxEntries: 50 });
  });

  it('stores locally and sweeps orphans older than an hour every 15 minutes by default', () => {
    const config = parseConfig(secrets());
    expect(config.storage).toEqual({ driver: 'local' });
    expect(config.orphanSweep).toEqual({ graceMs: 3_600_000, intervalMs: 900_000 });
    expect(parseConfig({ ...secrets(), ORPHAN_SWEEP_INTERVAL_SECONDS: '0' }).orphanSweep.intervalMs).toBe(0);
  });

  it('reads the S3 settings, with explicit credentials when both keys are set', () => {
    const config = parseConfig({
      ...secrets(),
      STORAGE: 's3',
      S3_BUCKET: 'intake',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'key-id',
      AWS_SECRET_ACCESS_KEY: 'key-secret',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      bucket: 'intake',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'key-secret' },
    });
    // No keys: the SDK's default chain (instance role, shared files) finds them.
    const aws = parseConfig({ ...secrets(), STORAGE: 's3', S3_BUCKET: 'intake', S3_REGION: 'eu-west-3' }).storage;
    expect(aws).toMatchObject({ driver: 's3', endpoint: undefined, region: 'eu-west-3', credentials: undefined });
  });

  it('refuses an S3 configuration without a bucket, with a bad endpoint or half a key pair', () => {
    const problems = problemsOf({
      ...secrets(),
      STORAGE: 's3',
      S3_ENDPOINT: 'not a url',
      AWS_SECRET_ACCESS_KEY: 'half-of-a-pair',
    }).join('\n');
    expect(problems).toContain('S3_ENDPOINT');
    expect(problemsOf({ ...secrets(), STORAGE: 's3' }).join('\n')).toContain('S3_BUCKET');
    const half = problemsOf({ ...secrets(), STORAGE: 's3', S3_BUCKET: 'b', AWS_SECRET_ACCESS_KEY: 'half-of-a-pair' });
    expect(half.join('\n')).toContain('AWS_ACCESS_KEY_ID');
    expect(half.join('\n')).not.toContain('half-of-a-pair');
  });
});

describe('.env', () => {
  it('is generated on a first start outside production, readable by its owner only, and read back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'intake-env-'));
    const file = ensureEnvFile(dir, 'development');
    expect(file).toBe(path.join(dir, '.env'));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(ensureEnvFile(dir, 'development')).toBeUndefined();
    const config = parseConfig(readEnvironment(dir, {}));
    expect(config.admin?.email).toBe('admin@localhost');
    expect(config.admin?.password.length).toBeGreaterThanOrEqual(20);
    expect(() => parseConfig({ ...readEnvironment(dir, {}), NODE_ENV: 'production' })).not.toThrow();
  });

  it('is not generated in production', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'intake-env-'));
    expect(ensureEnvFile(dir, 'production')).toBeUndefined();
  });

  it('loses to the environment', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'intake-env-'));
    writeFileSync(path.join(dir, '.env'), 'HOST=0.0.0.0\nLOG_LEVEL=debug\n');
    expect(readEnvironment(dir, { HOST: '127.0.0.2' })).toEqual(
      expect.objectContaining({ HOST: '127.0.0.2', LOG_LEVEL: 'debug' }),
    );
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toContain('HOST=0.0.0.0');
  });
});
