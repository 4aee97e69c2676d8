// The console's page loads in the admin's log, through a listening server with its logger writing to
// memory: its files are not `"route":"unmatched"` lines at info (20 to 30 a page load before), they
// are `console` lines at debug; a browser that goes away mid-file leaves one debug line, no stack.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { createLogger } from '@intake/shared/logger';
import { createTestServices } from '@intake/shared/test';
import { buildAdminApp, type AdminApp } from '../app.js';

jest.setTimeout(60_000);

const ASSETS = ['app-3f2a1b.js', 'vendor-9c8d7e.js', 'app-5e6f70.css', 'inter-1a2b3c.woff2'];
const INDEX = `<!doctype html><html><head>${ASSETS.map((name) => `<link href="/assets/${name}">`).join('')}</head></html>`;
// Large enough that the answer is still streaming when the client goes away.
const LARGE = 'large-0d1e2f.js';

interface Captured {
  text: string;
  write(line: string): void;
  lines(): Record<string, unknown>[];
}

function memory(): Captured {
  const captured: Captured = {
    text: '',
    write(line) {
      captured.text += line;
    },
    lines: () =>
      captured.text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
  return captured;
}

async function settle(): Promise<void> {
  // Access lines are written once each response's socket closed.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

let services: Awaited<ReturnType<typeof createTestServices>>;
let dir: string;

beforeAll(async () => {
  services = await createTestServices();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-console-log-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  for (const name of ASSETS) {
    await writeFile(path.join(dir, 'assets', name), `/* ${name} */`);
  }
  await writeFile(path.join(dir, 'assets', LARGE), Buffer.alloc(16 * 1024 * 1024, 'a'));
});

afterAll(async () => {
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

async function withAdmin(level: 'info' | 'debug', run: (origin: string, log: Captured) => Promise<void>) {
  const log = memory();
  const built: AdminApp = await buildAdminApp(
    { ...services, logger: createLogger(level, {}, log) },
    { consoleDir: dir },
  );
  const server: Server = built.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    await run(origin, log);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await built.stop();
  }
}

/** What a browser asks for on a page load: the page (a deep link), its files, and a missing icon. */
async function loadConsole(origin: string): Promise<void> {
  for (const route of ['/sites/5b1c/forms/9d2e', ...ASSETS.map((name) => `/assets/${name}`), '/favicon.ico']) {
    const response = await fetch(`${origin}${route}`);
    await response.arrayBuffer();
  }
}

describe("the console's page loads in the admin's log", () => {
  it('write no access line at info, and none `unmatched`', async () => {
    await withAdmin('info', async (origin, log) => {
      await loadConsole(origin);
      // An API route still gets its line at info: the quiet is the console's only.
      await (await fetch(`${origin}/healthz`)).arrayBuffer();
      await settle();
      const requests = log.lines().filter((line) => line.msg === 'request');
      expect(requests.map((line) => line.route)).toEqual(['/healthz']);
      expect(log.text).not.toContain('unmatched');
    });
  });

  it('write one `console` line per file at debug', async () => {
    await withAdmin('debug', async (origin, log) => {
      await loadConsole(origin);
      await settle();
      const requests = log.lines().filter((line) => line.msg === 'request');
      expect(requests).toHaveLength(ASSETS.length + 2);
      expect(new Set(requests.map((line) => line.route))).toEqual(new Set(['console']));
      expect(requests.map((line) => line.level)).toEqual(requests.map(() => 20));
    });
  });

  it.each(['info', 'debug'] as const)(
    'a browser gone mid-file leaves no stack and no warning (LOG_LEVEL=%s)',
    async (level) => {
      await withAdmin(level, async (origin, log) => {
        await new Promise<void>((resolve, reject) => {
          const outgoing = request(`${origin}/assets/${LARGE}`, (response) => {
            response.once('data', () => {
              // The tab closed after the first bytes.
              outgoing.destroy();
              resolve();
            });
          });
          outgoing.on('error', () => undefined);
          outgoing.once('error', reject);
          outgoing.end();
        });
        await settle();
        expect(log.text).not.toContain('"stack"');
        expect(log.lines().filter((line) => (line.level as number) >= 40)).toEqual([]);
        const gone = log.lines().filter((line) => line.msg === 'client went away mid-answer');
        if (level === 'debug') {
          // Koa reports it from the file's stream and from the response's end: a line each.
          expect(gone.length).toBeGreaterThan(0);
          for (const line of gone) {
            expect(line).toMatchObject({
              level: 20,
              code: expect.stringMatching(/^(ERR_STREAM_PREMATURE_CLOSE|ECONNRESET|EPIPE)$/),
            });
          }
        } else {
          expect(log.text).toBe('');
        }
      });
    },
  );
});
