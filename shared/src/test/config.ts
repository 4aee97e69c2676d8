import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../config/load-config.js';
import type { Config } from '../config/types.js';
import { generateSecret } from '../secrets/index.js';

/** A valid configuration with fresh secrets, ports 0 and a temporary DATA_DIR. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({
    NODE_ENV: 'test',
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'intake-test-')),
    API_KEY: generateSecret(32),
    JWT_SECRET: generateSecret(32),
    TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
}
