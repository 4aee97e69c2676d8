// The real processes, as an operator starts them: `npm start`'s entry on a first start (generated
// .env, migrations, both services, graceful SIGTERM), and the start-up refusals. They run the
// compiled code, which `npm test` builds first (pretest).
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseDotEnv } from 'dotenv';
import { createScratchPostgres, testDriverName } from '../test/database.js';
import { killProcesses, listeningUrls, runScript } from '../test/processes.js';

let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchPostgres(process.env.TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await dropDatabase?.();
});

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

/** `npm start`'s entry in a fresh directory, on the scratch database when there is one. */
function startOnAnyPorts() {
  const cwd = mkdtempSync(path.join(tmpdir(), 'intake-start-'));
  const started = runScript('scripts/start.js', cwd, {
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return { cwd, started };
}

describe(`processes on ${testDriverName()}`, () => {
  it('npm start on a first start: writes .env, starts both services, lets its admin log in, exits 0 on SIGTERM', async () => {
    const { cwd, started } = startOnAnyPorts();
    try {
      const urls = await listeningUrls(started, ['gateway', 'admin']);
      expect(urls.gateway).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const env = parseDotEnv(readFileSync(path.join(cwd, '.env')));
      expect(Object.keys(env).sort()).toEqual([
        'ADMIN_EMAIL',
        'ADMIN_PASSWORD',
        'API_KEY',
        'JWT_SECRET',
        'TOKEN_ENCRYPTION_KEY',
      ]);
      expect(env.ADMIN_EMAIL).toBe('admin@localhost');
      for (const name of ['API_KEY', 'JWT_SECRET', 'TOKEN_ENCRYPTION_KEY', 'ADMIN_PASSWORD']) {
        expect(started.output()).not.toContain(env[name]);
      }
      expect(started.output()).toContain(path.join(cwd, '.env'));

      expect((await fetch(`${urls.gateway}/healthz`)).status).toBe(200);
      expect((await fetch(`${urls.admin}/readyz`)).status).toBe(200);
      // The console's address to open is logged (localhost: passkeys refuse an IP address), and it
      // answers the built page with its security headers.
      const consoleUrl = urls.admin.replace('//127.0.0.1:', '//localhost:');
      expect(started.output()).toContain(`"msg":"console: open ${consoleUrl}/ and sign in"`);
      const page = await fetch(`${urls.admin}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const login = await fetch(`${urls.admin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
          variables: { e: env.ADMIN_EMAIL, p: env.ADMIN_PASSWORD },
        }),
      });
      const token = ((await login.json()) as { data: { login: { token: string } } }).data.login.token;
      expect(token).toEqual(expect.any(String));

      // The search indexer runs in this one process too: a submission sent is found by text shortly.
      const gql = async (query: string, variables: Record<string, unknown> = {}) => {
        const answer = await fetch(`${urls.admin}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables }),
        });
        return ((await answer.json()) as { data: Record<string, any> }).data;
      };
      const { createSite } = await gql('mutation { createSite(input: { name: "Shop" }) { id } }');
      const { createForm } = await gql(
        'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact" }) { id code } }',
        { s: createSite.id },
      );
      const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
      const sent = await fetch(`${urls.gateway}/api/v1/send/${createForm.code}`, {
        method: 'POST',
        headers: {
          'X-KEY-SERVICE': env.API_KEY!,
          Authorization: `Bearer ${siteApiView.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'Grace Hopper' }),
      });
      expect(sent.status).toBe(201);
      const searched = () =>
        gql(
          'query($f: ID!) { submissions(formId: $f, filter: { query: "grace hop" }) { totalCount searchIndexing } }',
          {
            f: createForm.id,
          },
        );
      const deadline = Date.now() + 10_000;
      let found = await searched();
      while (found.submissions.totalCount === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        found = await searched();
      }
      expect(found.submissions).toEqual({ totalCount: 1, searchIndexing: false });

      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      // DATA_DIR and everything in it (the embedded database, stored files) is its owner's alone.
      const dataDir = path.join(cwd, 'data');
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(cwd, '.env'))).toBe(0o600);
      // The receipt signing key, made on this first start.
      expect(modeOf(path.join(dataDir, 'receipt-keys.json'))).toBe(0o600);
      if (!databaseUrl) {
        expect(existsSync(path.join(dataDir, 'db'))).toBe(true);
        const opened = readdirSync(dataDir, { recursive: true, withFileTypes: true }).map((entry) => ({
          entry: path.join(entry.parentPath, entry.name),
          groupOrOther: modeOf(path.join(entry.parentPath, entry.name)) & 0o077,
        }));
        expect(opened.length).toBeGreaterThan(3);
        expect(opened.filter(({ groupOrOther }) => groupOrOther !== 0)).toEqual([]);
      }
    } finally {
      await killProcesses([started]);
    }
  });

  it('honours a SIGTERM that arrives while it is still starting: exits 0 once started', async () => {
    const { cwd, started } = startOnAnyPorts();
    try {
      // Signal once start-up has begun (the .env is written first) but before anything listens.
      while (!existsSync(path.join(cwd, '.env')) && started.child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(started.output()).not.toContain('"msg":"listening"');
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      await killProcesses([started]);
    }
  });

  it('refuses to start in production without secrets, naming them, and writes no .env', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-start-'));
    const started = runScript('scripts/start.js', cwd, { NODE_ENV: 'production', API_KEY: 'short' });
    expect(await started.exited).toBe(1);
    for (const name of ['API_KEY', 'JWT_SECRET', 'TOKEN_ENCRYPTION_KEY']) {
      expect(started.output()).toContain(name);
    }
    expect(started.output()).not.toContain('short');
    expect(existsSync(path.join(cwd, '.env'))).toBe(false);
  });

  it('refuses to run one service as its own process on the embedded database', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-start-'));
    for (const script of ['gateway/dist/main.js', 'admin-api/dist/main.js']) {
      const started = runScript(script, cwd);
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain('DATABASE_URL');
    }
  });

  if (process.env.TEST_DATABASE_URL) {
    it('runs migrate, then the gateway and the admin API as separate processes on PostgreSQL', async () => {
      const cwd = mkdtempSync(path.join(tmpdir(), 'intake-start-'));
      const env = { GATEWAY_PORT: '0', ADMIN_PORT: '0', DATABASE_URL: databaseUrl! };
      const migrate = runScript('shared/dist/db/migrate-cli.js', cwd, env);
      expect(await migrate.exited).toBe(0);
      const gateway = runScript('gateway/dist/main.js', cwd, env);
      const admin = runScript('admin-api/dist/main.js', cwd, env);
      try {
        const [gatewayUrls, adminUrls] = await Promise.all([
          listeningUrls(gateway, ['gateway']),
          listeningUrls(admin, ['admin']),
        ]);
        expect((await fetch(`${gatewayUrls.gateway}/readyz`)).status).toBe(200);
        expect((await fetch(`${adminUrls.admin}/readyz`)).status).toBe(200);
        gateway.child.kill('SIGTERM');
        admin.child.kill('SIGINT');
        expect(await Promise.all([gateway.exited, admin.exited])).toEqual([0, 0]);
      } finally {
        await killProcesses([gateway, admin]);
      }
    });
  }
});
