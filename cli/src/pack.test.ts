// The packed command line installs on a clean prefix and runs: `npm pack` (its prepack compiles),
// `npm install --global --prefix <scratch> <tarball>`, then the installed `intake` against a listening
// admin API. Dependencies come from the npm cache (--prefer-offline), so the run needs no network
// once `npm install` has run in the checkout.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI_ROOT, json, runCli, startCliWorld, type CliWorld } from './test/cli-harness.js';

let world: CliWorld;
let scratch: string;

function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

beforeAll(async () => {
  world = await startCliWorld();
  scratch = await mkdtemp(path.join(tmpdir(), 'intake-pack-'));
}, 240000);

afterAll(async () => {
  await world?.close();
  if (scratch) {
    await rm(scratch, { recursive: true, force: true });
  }
});

describe('npm pack', () => {
  let bin: string;

  it('gives a tarball of the compiled command line only, which installs on a clean prefix', async () => {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], CLI_ROOT)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/intake.js',
        'dist/main.js',
        'dist/setup/plan.js',
        // The typed GraphQL documents, and the contract (the bounds the setup file shares with the admin
        // API), bundled in: @intake/contract is a private workspace, never installed with it.
        'dist/gql/graphql.js',
        'dist/contract/index.js',
        'dist/contract/input-bounds.js',
        'dist/contract/problems.js',
      ]),
    );
    expect(files.filter((file) => file.startsWith('src/') || /\.test\.|tsbuildinfo|dist\/test\//.test(file))).toEqual(
      [],
    );
    // No compiled kernel file travels with it any more.
    expect(files.filter((file) => file.startsWith('dist/shared/'))).toEqual([]);

    const prefix = path.join(scratch, 'prefix');
    npm(
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(scratch, packed[0]!.filename),
      ],
      scratch,
    );
    bin = path.join(prefix, 'bin', 'intake');
    // Installed alone: no workspace package came along, the contract neither (it is in dist/contract).
    const installed = await readdir(path.join(prefix, 'lib', 'node_modules'));
    expect(installed).toEqual(['@intake']);
    expect(await readdir(path.join(prefix, 'lib', 'node_modules', '@intake'))).toEqual(['cli']);
    const cliModules = await readdir(path.join(prefix, 'lib', 'node_modules', '@intake', 'cli', 'node_modules'));
    expect(cliModules).not.toContain('@intake');
  }, 240000);

  it('runs: --help, and a real command against the admin API', async () => {
    expect(bin).toEqual(expect.stringContaining('prefix'));
    const help = await runCli(['--help'], { bin, cwd: scratch });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: intake [options] [command]');
    const created = await runCli(['sites', 'create', '--name', 'Packed', '-o', 'json'], {
      bin,
      cwd: scratch,
      env: world.env,
    });
    expect(json(created)).toMatchObject({ name: 'Packed' });
    const listed = await runCli(['sites', 'list', '-o', 'json'], { bin, cwd: scratch, env: world.env });
    expect(json(listed).map((site: { name: string }) => site.name)).toEqual(['Packed']);
    // The setup file's schema, built with the bounds of the bundled contract, as the clone prints it.
    const schema = await runCli(['schema'], { bin, cwd: scratch });
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(
      JSON.parse(await readFile(path.join(CLI_ROOT, '../docs/intake-config.schema.json'), 'utf8')),
    );
  });
});
