// The console's files on the admin port: security headers, deep links answered with index.html,
// hashed assets cached, missing files 404, API routes untouched, and a clear answer when unbuilt.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { createTestServices } from '@intake/shared/test';
import type { Server } from 'node:http';
import { buildAdminApp, type AdminApp } from '../app.js';

jest.setTimeout(60_000);

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f2a1b.js"></script></head></html>';

describe('the console on the admin port', () => {
  let services: Awaited<ReturnType<typeof createTestServices>>;
  let dir: string;
  let built: AdminApp;
  let server: Server;
  let origin: string;

  const start = async (consoleDir: string): Promise<void> => {
    built = await buildAdminApp(services, { consoleDir });
    server = built.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
  };
  const stop = async (): Promise<void> => {
    await new Promise((resolve) => server.close(resolve));
    await built.stop();
  };

  beforeAll(async () => {
    services = await createTestServices();
    dir = await mkdtemp(path.join(tmpdir(), 'intake-console-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'app-3f2a1b.js'), 'console.log(1);');
    await writeFile(path.join(dir, '.secret'), 'hidden');
    await start(dir);
  });
  afterAll(async () => {
    await stop();
    await services.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['/', '/sites', '/sites/5b1c/forms/9d2e', '/sign-in?next=%2Fsites'])(
    'answers %s with index.html and the console security headers',
    async (route) => {
      const response = await fetch(`${origin}${route}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe(INDEX);
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('serves hashed assets with their type, cached for good', async () => {
    const response = await fetch(`${origin}/assets/app-3f2a1b.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it.each(['/assets/missing.js', '/.secret', '/favicon.ico', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json'])(
    'answers %s with 404, never the page or a file outside the build',
    async (route) => {
      const response = await fetch(`${origin}${route}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('<html');
    },
  );

  it('leaves the API routes to the API', async () => {
    expect((await fetch(`${origin}/graphql`)).status).toBe(405);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const download = await fetch(`${origin}/files/not-a-link`);
    expect(download.status).toBeGreaterThanOrEqual(400);
    expect(await download.text()).not.toContain('<html');
    const post = await fetch(`${origin}/`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.text()).not.toContain('<html');
  });

  it('says the console is not built when its folder is missing', async () => {
    await stop();
    await start(path.join(dir, 'missing'));
    const response = await fetch(`${origin}/sites`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build');
    await stop();
    await start(dir);
  });
});
