// The deployment files, checked without a Docker engine: docker-compose.yml is parsed and
// interpolated the way `docker compose` does it, and every service running the Intake image must
// pass the real configuration schema with the variables it would get; health checks, published
// ports, dependencies and volumes must agree with that configuration. `.env.example` must list
// exactly the variables of the schema, with true defaults. The Dockerfile is checked statically.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseDotEnv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { generateSecret } from '../secrets/index.js';
import { parseConfig, type RawEnvironment } from './load-config.js';
import { environmentSchema } from './schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readRoot = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Variables of `.env.example` that only docker-compose.yml reads. */
const COMPOSE_ONLY = ['POSTGRES_PASSWORD'];
const APP_IMAGE = 'intake:latest';
const schemaKeys = Object.keys(environmentSchema.shape).sort();
const field = (key: string) => environmentSchema.shape[key as keyof typeof environmentSchema.shape];

// --- .env.example --------------------------------------------------------------------------------

interface ExampleEntry {
  key: string;
  value: string;
  commented: boolean;
}

/** `KEY=value` and `# KEY=value` lines; prose comments are anything else. */
function exampleEntries(): ExampleEntry[] {
  return readRoot('.env.example')
    .split('\n')
    .flatMap((line) => {
      const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (!match) {
        return [];
      }
      const key = match[2]!;
      return [{ key, value: parseDotEnv(`${key}=${match[3]}`)[key] ?? '', commented: match[1] !== undefined }];
    });
}

/** Secrets of production strength, as an operator would put them into `.env`. */
function productionSecrets(): Record<string, string> {
  return {
    API_KEY: generateSecret(32),
    JWT_SECRET: generateSecret(32),
    TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
    POSTGRES_PASSWORD: generateSecret(24, 'hex'),
  };
}

/** `.env` as `cp .env.example .env` plus the filled-in secrets (and any overrides) makes it. */
function dotEnvFromExample(overrides: Record<string, string> = {}): Record<string, string> {
  const active = exampleEntries().filter((entry) => !entry.commented);
  return {
    ...Object.fromEntries(active.map((entry) => [entry.key, entry.value])),
    ...productionSecrets(),
    ...overrides,
  };
}

describe('.env.example', () => {
  it('lists every variable of the configuration schema once, and nothing else but the compose-only ones', () => {
    const keys = exampleEntries().map((entry) => entry.key);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(keys.filter((key) => !COMPOSE_ONLY.includes(key)).sort()).toEqual(schemaKeys);
    expect(COMPOSE_ONLY.filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('shows the real default of every variable that has one, and a valid example of the others', () => {
    for (const { key, value, commented } of exampleEntries()) {
      if (!commented || COMPOSE_ONLY.includes(key)) {
        continue;
      }
      const schema = field(key);
      const parsed = schema.safeParse(value);
      expect({ key, valid: parsed.success }).toEqual({ key, valid: true });
      const fallback = schema.safeParse(undefined);
      if (fallback.success && fallback.data !== undefined) {
        expect({ key, value: parsed.data }).toEqual({ key, value: fallback.data });
      }
    }
  });

  it('leaves the secrets to fill in, and is a valid production configuration once they are', () => {
    const active = exampleEntries().filter((entry) => !entry.commented);
    expect(active.map((entry) => entry.key).sort()).toEqual(
      ['API_KEY', 'JWT_SECRET', 'POSTGRES_PASSWORD', 'TOKEN_ENCRYPTION_KEY'].sort(),
    );
    expect(active.every((entry) => entry.value === '')).toBe(true);
    expect(() => parseConfig({ ...dotEnvFromExample(), NODE_ENV: 'production' })).not.toThrow();
  });
});

// --- docker-compose.yml --------------------------------------------------------------------------

type Vars = Record<string, string | undefined>;

/** Compose's interpolation: $$, ${X}, ${X:-d}, ${X-d}, ${X:?e}, ${X?e}, $X. */
function interpolate(text: string, vars: Vars, referenced: Set<string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name: string | undefined, operator: string | undefined, argument: string | undefined, bare?: string) => {
      if (match === '$$') {
        return '$';
      }
      const key = (name ?? bare)!;
      referenced.add(key);
      const value = vars[key];
      const unset = value === undefined;
      const empty = unset || value === '';
      switch (operator) {
        case ':-':
          return empty ? argument! : value!;
        case '-':
          return unset ? argument! : value!;
        case ':?':
        case '?':
          if (operator === ':?' ? empty : unset) {
            throw new Error(`required variable ${key} is missing: ${argument}`);
          }
          return value!;
        default:
          return value ?? '';
      }
    },
  );
}

function interpolateDeep(node: unknown, vars: Vars, referenced: Set<string>): unknown {
  if (typeof node === 'string') {
    return interpolate(node, vars, referenced);
  }
  if (Array.isArray(node)) {
    return node.map((item) => interpolateDeep(item, vars, referenced));
  }
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, interpolateDeep(value, vars, referenced)]),
    );
  }
  return node;
}

interface Dependency {
  condition: string;
  required?: boolean;
}

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  command?: string[];
  restart?: string;
  environment?: Record<string, string | number | boolean | null>;
  env_file?: (string | { path: string; required?: boolean })[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, Dependency>;
  healthcheck?: { test: string[] };
}

interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

function loadCompose(vars: Vars): { compose: ComposeFile; referenced: Set<string> } {
  const raw = parseYaml(readRoot('docker-compose.yml'), { merge: true }) as ComposeFile;
  const referenced = new Set<string>();
  return { compose: interpolateDeep(raw, vars, referenced) as ComposeFile, referenced };
}

/** The environment a container gets: env_file (.env) first, then its `environment`, which wins. */
function containerEnvironment(service: Service, dotEnv: Record<string, string>): RawEnvironment {
  const readsDotEnv = (service.env_file ?? []).some(
    (entry) => (typeof entry === 'string' ? entry : entry.path) === '.env',
  );
  const own = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, value == null ? '' : String(value)]),
  );
  return { ...(readsDotEnv ? dotEnv : {}), ...own };
}

/** The port a service's entry point listens on, and its name, by the entry point it runs. */
function listeningPort(service: Service, config: ReturnType<typeof parseConfig>): number | undefined {
  const entry = service.command?.[1] ?? '';
  if (entry === 'gateway/dist/main.js') {
    return config.gatewayPort;
  }
  if (entry === 'admin-api/dist/main.js') {
    return config.adminPort;
  }
  return undefined;
}

function hostOf(url: string | undefined): string | undefined {
  return url ? new URL(url).hostname : undefined;
}

function appServices(compose: ComposeFile): [string, Service][] {
  return Object.entries(compose.services).filter(([, service]) => service.image === APP_IMAGE);
}

describe('docker-compose.yml', () => {
  it('refuses to start without the secrets, and reads only variables that .env.example lists', () => {
    const example = Object.fromEntries(exampleEntries().map((entry) => [entry.key, '']));
    expect(() => loadCompose(example)).toThrow(/API_KEY|JWT_SECRET|TOKEN_ENCRYPTION_KEY|POSTGRES_PASSWORD/);
    for (const secret of ['API_KEY', 'JWT_SECRET', 'TOKEN_ENCRYPTION_KEY', 'POSTGRES_PASSWORD']) {
      const vars = { ...dotEnvFromExample(), [secret]: '' };
      expect(() => loadCompose(vars)).toThrow(secret);
    }
    const { referenced } = loadCompose(dotEnvFromExample());
    const listed = exampleEntries().map((entry) => entry.key);
    expect([...referenced].filter((key) => !listed.includes(key))).toEqual([]);
  });

  it('is documented with the Compose version its newest feature needs (Compose 1.x refuses the file)', () => {
    const { compose } = loadCompose(dotEnvFromExample());
    const services = Object.values(compose.services);
    // `required` on an env_file entry came with Compose 2.24, on a depends_on entry with 2.20.
    const optionalEnvFile = services.some((service) =>
      (service.env_file ?? []).some((entry) => typeof entry !== 'string' && 'required' in entry),
    );
    const optionalDependency = services.some((service) =>
      Object.values(service.depends_on ?? {}).some((dependency) => dependency.required === false),
    );
    const needed = optionalEnvFile ? '2.24' : optionalDependency ? '2.20' : '2.0';
    expect(readRoot('README.md')).toContain(`This needs Docker Compose v${needed} or later`);
    expect(readRoot('docs/operations.md')).toContain(`It needs Docker Compose\nv${needed} or later`);
    expect(readRoot('docker-compose.yml')).toContain(`# Needs Docker Compose v${needed} or later`);
  });

  it('runs the gateway, the admin API, the worker and a one-shot migration from the one Intake image', () => {
    const { compose } = loadCompose(dotEnvFromExample());
    const entries = Object.fromEntries(appServices(compose).map(([name, service]) => [name, service.command]));
    expect(entries).toEqual({
      migrate: ['node', 'shared/dist/db/migrate-cli.js'],
      gateway: ['node', 'gateway/dist/main.js'],
      admin: ['node', 'admin-api/dist/main.js'],
      worker: ['node', 'worker/dist/main.js'],
    });
    for (const [, service] of appServices(compose)) {
      // The compiled entry point comes from a source file that exists.
      const source = service.command![1]!.replace('/dist/', '/src/').replace(/\.js$/, '.ts');
      expect({ source, exists: existsSync(path.join(root, source)) }).toEqual({ source, exists: true });
      expect(service.build).toBeDefined();
    }
    expect(compose.services.migrate!.restart).toBe('no');
  });

  it.each<[string, Record<string, string>]>([
    ['local storage', {}],
    [
      'the s3 profile (MinIO)',
      {
        STORAGE: 's3',
        S3_BUCKET: 'intake',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'intake',
        AWS_SECRET_ACCESS_KEY: generateSecret(24),
      },
    ],
  ])('gives every Intake service a valid production configuration with %s', (_label, overrides) => {
    const dotEnv = dotEnvFromExample(overrides);
    const { compose } = loadCompose(dotEnv);
    for (const [name, service] of appServices(compose)) {
      let config: ReturnType<typeof parseConfig>;
      try {
        config = parseConfig(containerEnvironment(service, dotEnv));
      } catch (error) {
        throw new Error(`service ${name}: ${(error as Error).message}`, { cause: error });
      }
      expect({ name, production: config.production, host: config.host }).toEqual({
        name,
        production: true,
        host: '0.0.0.0',
      });
      expect({ name, storage: config.storage.driver }).toEqual({ name, storage: overrides.STORAGE ?? 'local' });

      // What the configuration reaches over the network is a service this one waits for.
      const dependsOn = service.depends_on ?? {};
      const needed = [
        hostOf(config.databaseUrl),
        config.rateLimits.redisUrl ? hostOf(config.rateLimits.redisUrl) : undefined,
      ];
      if (name === 'gateway' && config.clamav.enabled) {
        needed.push(config.clamav.host);
      }
      for (const host of needed.filter((value) => value !== undefined)) {
        if (name !== 'gateway' && host === 'redis') {
          continue; // Only the gateway counts rate limits.
        }
        expect({ name, host, exists: host! in compose.services }).toEqual({ name, host, exists: true });
        expect({ name, host, condition: dependsOn[host!]?.condition }).toEqual({
          name,
          host,
          condition: 'service_healthy',
        });
        expect(compose.services[host!]!.healthcheck).toBeDefined();
      }
      if (name !== 'migrate') {
        expect({ name, migrate: dependsOn.migrate?.condition }).toEqual({
          name,
          migrate: 'service_completed_successfully',
        });
      }

      if (config.storage.driver === 's3') {
        const endpoint = hostOf(config.storage.endpoint)!;
        expect(compose.services[endpoint]?.profiles).toEqual(['s3']);
        if (name !== 'migrate') {
          expect({ name, bucket: dependsOn['minio-bucket'] }).toEqual({
            name,
            bucket: { condition: 'service_completed_successfully', required: false },
          });
        }
      }
    }
  });

  it('publishes the gateway and admin ports the services listen on, and probes /readyz on them', () => {
    const dotEnv = dotEnvFromExample();
    const { compose } = loadCompose(dotEnv);
    const probed: string[] = [];
    for (const [name, service] of appServices(compose)) {
      const config = parseConfig(containerEnvironment(service, dotEnv));
      const port = listeningPort(service, config);
      if (port === undefined) {
        expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
        continue;
      }
      probed.push(name);
      expect(port).toBeGreaterThan(0);
      const published = (service.ports ?? []).map((mapping) => Number(mapping.split(':').pop()));
      expect({ name, published }).toEqual({ name, published: [port] });
      const probe = (service.healthcheck?.test ?? []).join(' ');
      expect({ name, probe }).toEqual({
        name,
        probe: expect.stringMatching(new RegExp(`http://127\\.0\\.0\\.1:${port}/(readyz|healthz)\\b`)),
      });
    }
    expect(probed.sort()).toEqual(['admin', 'gateway']);
  });

  it('shares one files volume at DATA_DIR between the gateway (writes) and the admin API (downloads)', () => {
    const dotEnv = dotEnvFromExample();
    const { compose } = loadCompose(dotEnv);
    const mounts = ['gateway', 'admin'].map((name) => {
      const service = compose.services[name]!;
      const config = parseConfig(containerEnvironment(service, dotEnv));
      const mount = (service.volumes ?? []).find((volume) => volume.split(':')[1] === config.dataDir);
      expect({ name, mount }).toEqual({ name, mount: expect.any(String) });
      return mount!.split(':')[0]!;
    });
    expect(new Set(mounts).size).toBe(1);
    expect(compose.volumes).toHaveProperty(mounts[0]!);
  });

  it('pins every other image, uses clamav/clamav, and health-checks whatever is waited on as healthy', () => {
    const { compose } = loadCompose(dotEnvFromExample());
    expect(compose.services.clamav!.image).toMatch(/^clamav\/clamav:/);
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/^[\w./-]+:[\w.-]+$/) });
      expect({ name, latest: /:latest$/.test(service.image!) && service.image !== APP_IMAGE }).toEqual({
        name,
        latest: false,
      });
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in compose.services }).toEqual({
          name,
          dependency,
          exists: true,
        });
        if (condition === 'service_healthy') {
          expect({ dependency, healthcheck: compose.services[dependency]!.healthcheck !== undefined }).toEqual({
            dependency,
            healthcheck: true,
          });
        }
      }
    }
    for (const profiled of ['minio', 'minio-bucket']) {
      expect(compose.services[profiled]?.profiles).toEqual(['s3']);
    }
  });
});

// --- Dockerfile ----------------------------------------------------------------------------------

describe('Dockerfile', () => {
  const instructions = readRoot('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages = instructions.reduce<string[][]>((all, line) => {
    if (/^FROM\s/i.test(line)) {
      all.push([]);
    }
    all.at(-1)?.push(line);
    return all;
  }, []);
  const runtime = stages.at(-1) ?? [];

  it('builds on Node 24 slim: the manifests stage, then the build and runtime stages from it', () => {
    const [manifests, build, last] = stages.map((stage) => stage[0]!.split(/\s+/));
    expect(stages.length).toBe(3);
    expect(manifests![1]).toMatch(/^node:24(\.\d+)*(-[a-z]+)?-slim$/);
    expect(manifests!.slice(2)).toEqual(['AS', 'manifests']);
    expect(build!.slice(1)).toEqual(['manifests', 'AS', 'build']);
    expect(last!.slice(1)).toEqual(['manifests', 'AS', 'runtime']);
    expect(stages[1]!.some((line) => /^RUN npm ci\b(?!.*--omit=dev)/.test(line))).toBe(true);
    expect(stages[1]!.some((line) => /^RUN npm run build\b/.test(line))).toBe(true);
    // Every workspace's manifest, so that npm ci installs the whole lock in either stage.
    const workspaces = (JSON.parse(readRoot('package.json')) as { workspaces: string[] }).workspaces;
    const copied = stages[0]!.filter((line) => /^COPY\s/.test(line)).map((line) => line.split(/\s+/)[1]);
    expect(copied).toEqual(['package.json', ...workspaces.map((workspace) => `${workspace}/package.json`)]);
  });

  it('runs as an unprivileged user with production dependencies only', () => {
    const users = runtime.filter((line) => /^USER\s/i.test(line)).map((line) => line.split(/\s+/)[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(runtime.some((line) => /^RUN npm ci\b.*--omit=dev/.test(line))).toBe(true);
    expect(runtime.some((line) => /^ENV NODE_ENV=production\b/.test(line))).toBe(true);
    // Only compiled output comes from the build stage (the console's static files among it), never
    // its node_modules nor the development-only workspaces (test-files, bench).
    const fromBuild = runtime.filter((line) => /^COPY --from=/.test(line)).map((line) => line.split(/\s+/)[2]);
    expect(fromBuild.sort()).toEqual(
      [
        '/app/admin-api/dist',
        '/app/admin-web/dist',
        '/app/contract/dist',
        '/app/gateway/dist',
        '/app/migrations/dist',
        '/app/shared/dist',
        '/app/worker/dist',
      ].sort(),
    );
  });

  it("copies into the build stage what the console's build reads beside its workspace", () => {
    // docs/schema.graphql types the console; the README and docs/ become its Docs pages
    // (admin-web/docs-pages.ts): without them the image's build fails.
    const copied = stages[1]!.filter((line) => /^COPY\s(?!--from)/.test(line)).map((line) => line.split(/\s+/)[1]);
    expect(copied).toEqual(expect.arrayContaining(['README.md', 'docs']));
  });

  it('takes the compiled output of every workspace that a shipped one depends on', () => {
    const workspaces = (JSON.parse(readRoot('package.json')) as { workspaces: string[] }).workspaces;
    const manifests = new Map(
      workspaces.map((folder) => {
        const manifest = JSON.parse(readRoot(`${folder}/package.json`)) as {
          name: string;
          dependencies?: Record<string, string>;
        };
        return [manifest.name, { folder, dependencies: Object.keys(manifest.dependencies ?? {}) }];
      }),
    );
    const fromBuild = new Set(runtime.filter((line) => /^COPY --from=/.test(line)).map((line) => line.split(/\s+/)[2]));
    for (const { folder, dependencies } of manifests.values()) {
      if (!fromBuild.has(`/app/${folder}/dist`)) {
        continue;
      }
      for (const dependency of dependencies.filter((name) => manifests.has(name))) {
        const needed = `/app/${manifests.get(dependency)!.folder}/dist`;
        expect({ folder, dependency, copied: fromBuild.has(needed) }).toEqual({ folder, dependency, copied: true });
      }
    }
  });

  it('contains every entry point docker-compose.yml runs, and exposes the default ports', () => {
    const copied = runtime.filter((line) => /^COPY\s/.test(line)).map((line) => line.split(/\s+/).at(-1)!);
    const { compose } = loadCompose(dotEnvFromExample());
    for (const [name, service] of appServices(compose)) {
      const entry = service.command![1]!;
      expect({ name, entry, copied: copied.some((target) => entry.startsWith(target.replace(/\/?$/, '/'))) }).toEqual({
        name,
        entry,
        copied: true,
      });
    }
    const exposed = runtime.filter((line) => /^EXPOSE\s/.test(line)).flatMap((line) => line.split(/\s+/).slice(1));
    const defaults = parseConfig(dotEnvFromExample());
    expect(exposed.map(Number).sort()).toEqual([defaults.gatewayPort, defaults.adminPort].sort());
  });

  it('keeps secrets, local data and build output out of the build context', () => {
    const ignored = readRoot('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const pattern of ['.env', '**/node_modules', '**/dist', 'data', '.git']) {
      expect(ignored).toContain(pattern);
    }
  });
});
