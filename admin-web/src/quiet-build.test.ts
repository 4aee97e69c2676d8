// The console's build prints nothing but Vite's warnings by default: its table of files, about 100
// lines, came on every first `npm start`. LOG_LEVEL=debug brings the table back.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, jest } from '@jest/globals';

jest.setTimeout(180_000);

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VITE = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
const outDirs: string[] = [];

/** `vite build` of the console into a folder of its own; its whole output, both streams. */
async function build(logLevel: string | undefined): Promise<{ output: string; files: string[] }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'intake-console-build-'));
  outDirs.push(outDir);
  const env = { ...process.env, LOG_LEVEL: logLevel };
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [VITE, 'build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: WEB_ROOT, env },
  );
  return { output: stdout + stderr, files: await readdir(outDir) };
}

afterAll(async () => {
  await Promise.all(outDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the console's build", () => {
  it('is silent by default and lists its files at LOG_LEVEL=debug', async () => {
    const quiet = await build(undefined);
    expect(quiet.files).toEqual(expect.arrayContaining(['index.html', 'assets']));
    expect(quiet.output).toBe('');
    const detailed = await build('debug');
    expect(detailed.output).toMatch(/assets\/index-[\w-]+\.js/);
    expect(detailed.output.split('\n').length).toBeGreaterThan(20);
  });
});
