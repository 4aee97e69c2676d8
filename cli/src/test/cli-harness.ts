// Runs the built `intake` command as a child process, as a user would, against a listening admin API
// on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with a config folder of its own.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestAdmin, type TestAdmin } from '@intake/admin-api/test';

export const CLI_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_BIN = path.join(CLI_ROOT, 'bin/intake.js');

/** Compiles the command line (tsc -b is incremental: quick when nothing changed). */
export function buildCli(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', path.join(CLI_ROOT, 'tsconfig.json')], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`tsc -b cli failed:\n${result.stdout}${result.stderr}`);
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** The program to run instead of this checkout's bin (the packed one). */
  bin?: string;
}

/** Runs `intake args…` with only the environment given (no INTAKE_* from the caller). */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[key] !== undefined) {
      env[key] = process.env[key]!;
    }
  }
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value !== undefined) {
      env[key] = value;
    }
  }
  const [command, prefix] = options.bin ? [options.bin, []] : [process.execPath, [CLI_BIN]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], { env, cwd: options.cwd ?? CLI_ROOT, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface CliWorld {
  admin: TestAdmin;
  /** A login (admin) bearer token: account operations and the audit log need one. */
  sessionToken: string;
  /** An ADMIN-level API token of the first owner. */
  apiToken: string;
  /** A config folder of its own (XDG_CONFIG_HOME). */
  configHome: string;
  /** The environment that signs the command line in with the API token. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startCliWorld(): Promise<CliWorld> {
  buildCli();
  const admin = await startTestAdmin();
  const sessionToken = await admin.login();
  const minted = await admin.gql<{ createApiToken: { token: string } }>(
    'mutation { createApiToken(name: "cli tests", scope: { level: ADMIN }) { token } }',
    {},
    sessionToken,
  );
  const apiToken = minted.data!.createApiToken.token;
  const configHome = await mkdtemp(path.join(tmpdir(), 'intake-cli-config-'));
  return {
    admin,
    sessionToken,
    apiToken,
    configHome,
    env: { INTAKE_ADMIN_URL: admin.url, INTAKE_TOKEN: apiToken, XDG_CONFIG_HOME: configHome },
    async close() {
      await admin.close();
      await rm(configHome, { recursive: true, force: true });
    },
  };
}

/** The JSON a command printed with --output json. */
export function json<T = any>(result: CliResult): T {
  if (result.code !== 0 && result.code !== 2) {
    throw new Error(`intake exited ${result.code}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}
