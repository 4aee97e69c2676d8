// Stored profiles (an admin URL and an API token each) in the user's config folder, mode 0600:
// $XDG_CONFIG_HOME/intake/config.json on Linux, the platform's folder elsewhere (env-paths).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { graphqlEndpoint, type Connection } from '../api/client.js';
import { UsageError } from '../errors.js';

const profile = z.object({ url: z.string().min(1), token: z.string().min(1) });
const configFile = z.object({
  current: z.string().optional(),
  profiles: z.record(z.string(), profile).default({}),
});
export type ConfigFile = z.infer<typeof configFile>;

export function configDir(): string {
  return envPaths('intake', { suffix: '' }).config;
}

export function configPath(): string {
  return path.join(configDir(), 'config.json');
}

export async function readConfig(): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(configPath(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { profiles: {} };
    }
    throw error;
  }
  const parsed = configFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new UsageError(`${configPath()} is not an intake config file: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/** Written to a temporary file with mode 0600 and renamed, so a reader never sees half a file. */
export async function writeConfig(config: ConfigFile): Promise<void> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const temporary = `${configPath()}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, configPath());
}

export interface ConnectionOptions {
  profile?: string;
}

/** The admin URL from the environment and the variable it came from (named in errors). */
export function adminUrlFromEnv(): { url: string; variable: string } | undefined {
  const current = process.env.INTAKE_ADMIN_URL || undefined;
  if (current) {
    return { url: current, variable: 'INTAKE_ADMIN_URL' };
  }
  // The old name, kept for the scripts that set it; the client's examples used it for the gateway.
  const old = process.env.INTAKE_URL || undefined;
  if (old) {
    process.stderr.write('intake: INTAKE_URL is deprecated, set INTAKE_ADMIN_URL (the admin API) instead\n');
    return { url: old, variable: 'INTAKE_URL' };
  }
  return undefined;
}

/**
 * INTAKE_ADMIN_URL and INTAKE_TOKEN win over the profile (`--profile`, else INTAKE_PROFILE, else the
 * current one). INTAKE_TOKEN may stand alone (the profile gives the URL); INTAKE_ADMIN_URL only when
 * it is the profile's own URL. INTAKE_URL is read in place of INTAKE_ADMIN_URL when that is unset.
 */
export async function resolveConnection(options: ConnectionOptions): Promise<Connection & { profile?: string }> {
  const fromEnv = adminUrlFromEnv();
  const envToken = process.env.INTAKE_TOKEN || undefined;
  let stored: { url: string; token: string } | undefined;
  let name = options.profile ?? (process.env.INTAKE_PROFILE || undefined);
  if (!(fromEnv && envToken)) {
    const config = await readConfig();
    name ??= config.current;
    stored = name ? config.profiles[name] : undefined;
    if (name && !stored && options.profile !== undefined) {
      throw new UsageError(`No profile named ${name}: run intake login --profile ${name}`);
    }
  }
  // A stored token goes only to the server it was stored for: an admin URL naming another one needs
  // INTAKE_TOKEN too, or the token would be sent to a server that never issued it.
  if (fromEnv && !envToken && stored && graphqlEndpoint(fromEnv.url) !== graphqlEndpoint(stored.url)) {
    throw new UsageError(
      `${fromEnv.variable} is set without INTAKE_TOKEN, and profile ${name} is for ${stored.url}: set INTAKE_TOKEN too`,
    );
  }
  const url = fromEnv?.url ?? stored?.url;
  const token = envToken ?? stored?.token;
  if (!url || !token) {
    throw new UsageError('Not signed in: run intake login, or set INTAKE_ADMIN_URL and INTAKE_TOKEN');
  }
  const source = fromEnv ? fromEnv.variable : `the URL of profile ${name}`;
  return { url, token, source, profile: stored ? name : undefined };
}
