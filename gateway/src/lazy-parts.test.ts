// What `npm run start:gateway` leaves unloaded until a request needs it (docs/performance.md, "idle
// gateway"), and that the first request needing each part still answers 201 in good time. The
// compiled entry runs with a module-load hook (NODE_OPTIONS=--import) that writes what it loaded on
// SIGUSR2. Needs PostgreSQL (TEST_DATABASE_URL): start:gateway refuses the embedded database.
import { afterAll, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type Database } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { generateSecret } from '@intake/shared/secrets';
import { createServices } from '@intake/shared/services';
import {
  createScratchPostgres,
  describeOnPostgres,
  killProcesses,
  listeningUrl,
  makeForm,
  makeSite,
  missingBuild,
  runScript,
  testConfig,
  readModuleList,
  writeModuleListHook,
  type ModuleList,
  type StartedProcess,
} from '@intake/shared/test';
import { docx, plainOle2, zipOf } from '@intake/test-files';
import { sevenZipOf } from './test/sevenzip-samples.js';

const GATEWAY = 'gateway/dist/main.js';
/** Generous: a correctness bound on a loaded 2-core machine, not a benchmark. */
const FIRST_REQUEST_MS = 10_000;

/** Packages (and Node's bundled undici) a gateway on PostgreSQL must not load until a request needs them. */
const LAZY = {
  sanitiser: ['/node_modules/jsdom/', '/node_modules/dompurify/'],
  files: [
    '/node_modules/file-type/',
    '/node_modules/yauzl/',
    '/node_modules/cfb/',
    '/gateway/dist/files/file-stages.js',
  ],
  sevenZip: ['/node_modules/7z-wasm/'],
  other: [
    '/node_modules/ajv/',
    '/node_modules/piscina/',
    '/node_modules/altcha-lib/',
    '/node_modules/@electric-sql/pglite/',
    '/node_modules/@mikro-orm/pglite/',
    '/node_modules/fs-native-extensions/',
  ],
};

async function loadedBy(gateway: StartedProcess, file: string): Promise<ModuleList> {
  rmSync(file, { force: true });
  gateway.child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) {
      throw new Error(`no module list from the gateway:\n${gateway.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return readModuleList(file);
}

const present = (loaded: ModuleList, parts: readonly string[]) =>
  parts.filter((part) => loaded.modules.some((url) => url.includes(part)));

describeOnPostgres('the idle gateway loads what a request needs only when it needs it', (serverUrl) => {
  let gateway: StartedProcess | undefined;
  let db: Database | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await killProcesses([gateway]);
    await db?.close();
    await dropDatabase?.();
  });

  it('starts without the sanitiser, the file checks, 7-Zip, ajv, piscina, altcha, PGlite or undici, and loads each on first use', async () => {
    const built = missingBuild([GATEWAY]);
    if (built) {
      throw new Error(built);
    }
    const scratch = await createScratchPostgres(serverUrl);
    dropDatabase = scratch.drop;
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-lazy-'));
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: scratch.url,
      DATA_DIR: path.join(cwd, 'data'),
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      GATEWAY_PORT: '0',
      LOG_LEVEL: 'info',
    };
    // The site and form, written by this process with the gateway's own secrets.
    db = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    await migrate(db);
    const services = createServices(testConfig(env), db, createLogger('silent'));
    const { site, token } = await makeSite(services);
    const form = await makeForm(services, site);

    const hook = writeModuleListHook(cwd, 'SIGUSR2');
    const loadedFile = path.join(cwd, 'loaded.json');
    gateway = runScript(GATEWAY, cwd, { ...env, NODE_OPTIONS: `--import=${hook}`, LOADED_FILE: loadedFile });
    const url = await listeningUrl(gateway);

    const idle = await loadedBy(gateway, loadedFile);
    expect(idle.modules.some((module) => module.includes('/gateway/dist/main.js'))).toBe(true);
    expect(present(idle, Object.values(LAZY).flat())).toEqual([]);
    expect(idle.builtins.filter((name) => name.includes('undici'))).toEqual([]);

    const post = async (body: BodyInit, headers: Record<string, string> = {}) => {
      const started = performance.now();
      const response = await fetch(`${url}/api/v1/send/${form.code}`, {
        method: 'POST',
        headers: { 'X-KEY-SERVICE': env.API_KEY, Authorization: `Bearer ${token}`, ...headers },
        body,
      });
      const text = await response.text();
      return { status: response.status, text, ms: performance.now() - started };
    };
    const upload = (name: string, bytes: Buffer) => {
      const body = new FormData();
      body.append('name', 'Ada');
      body.append('file', new Blob([new Uint8Array(bytes)]), name);
      return post(body);
    };

    // The first value with markup loads jsdom and DOMPurify.
    const html = await post(JSON.stringify({ message: '<p>Hello <b>there</b><script>alert(1)</script></p>' }), {
      'Content-Type': 'application/json',
    });
    expect(html).toEqual(expect.objectContaining({ status: 201 }));
    expect(html.ms).toBeLessThan(FIRST_REQUEST_MS);
    expect(present(await loadedBy(gateway, loadedFile), LAZY.sanitiser)).toEqual(LAZY.sanitiser);

    // The first upload loads the file stages: a ZIP holding a DOCX (OOXML) and an OLE2 document (cfb).
    const zip = await upload('papers.zip', await zipOf({ 'report.docx': await docx(), 'old.doc': plainOle2() }));
    expect(zip).toEqual(expect.objectContaining({ status: 201 }));
    expect(zip.ms).toBeLessThan(FIRST_REQUEST_MS);
    expect(present(await loadedBy(gateway, loadedFile), LAZY.files)).toEqual(LAZY.files);

    // The first 7z archive starts the 7-Zip worker (7z-wasm loads in that thread, not this one).
    const sevenZip = await upload('notes.7z', await sevenZipOf([{ name: 'notes.txt', data: 'hello' }]));
    expect(sevenZip).toEqual(expect.objectContaining({ status: 201 }));
    expect(sevenZip.ms).toBeLessThan(FIRST_REQUEST_MS);

    // Still nothing from the other lazy parts: no request above needed them.
    expect(present(await loadedBy(gateway, loadedFile), LAZY.other)).toEqual([]);
  }, 120_000);
});
