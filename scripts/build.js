// `npm run build` (and so `npm start` and `npm test`, which build first): the workspaces, then the
// client's copy of the contract and the gateway's browser scripts, then docs/schema.graphql, then the
// command line and the console, each only when it is out of date: building everything took 16 to
// 40 s on every start although nothing had changed.
//   node scripts/build.js [workspaces|client|gateway-assets|schema|cli|console ...]   the named steps, in this order (default: all)
// `tsc -b` decides for itself; the other steps are skipped while a hash of their inputs (by content,
// not by time) and of their outputs is the one recorded after their last build, in
// node_modules/.cache/intake-build/. Why, and why not a task runner: docs/decisions/build-script.md.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = path.join(root, 'node_modules', '.cache', 'intake-build');

/** Each step: what it reads and writes (relative to the root), and how it runs. */
const STEPS = {
  workspaces: {
    // Incremental by itself (tsconfig `composite`, .tsbuildinfo): it rebuilds only what changed.
    command: [process.execPath, createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b'],
  },
  client: {
    // Compiled by the step above; its build bundles the compiled contract into client/dist/contract.
    inputs: ['contract/dist', 'contract/scripts', 'client/package.json'],
    outputs: ['client/dist/contract'],
    command: ['npm', 'run', 'build'],
    cwd: 'client',
  },
  'gateway-assets': {
    // The scripts the gateway serves to browsers: the ALTCHA widget (from node_modules) and its own.
    inputs: ['gateway/public', 'gateway/scripts', 'node_modules/altcha/package.json', 'package-lock.json'],
    outputs: ['gateway/dist/public'],
    command: [process.execPath, path.join(root, 'gateway/scripts/copy-browser-assets.js')],
  },
  schema: {
    // printAdminSchema() runs the compiled admin API (and the shared kernel and migrations it imports).
    inputs: ['admin-api/dist', 'shared/dist', 'migrations/dist', 'scripts/print-schema.js', 'package-lock.json'],
    outputs: ['docs/schema.graphql'],
    command: [process.execPath, path.join(root, 'scripts/print-schema.js')],
  },
  cli: {
    // codegen (from the printed schema and the .graphql operations), then `tsc -b` of the command line
    // (which is therefore not among the root tsconfig's references: its sources import src/gql), then
    // the contract bundled into its tarball (contract/scripts/bundle.js).
    inputs: [
      'cli/src',
      'cli/bin',
      'cli/codegen.ts',
      'cli/tsconfig.json',
      'cli/package.json',
      'docs/schema.graphql',
      'contract/dist',
      'contract/scripts',
      'package-lock.json',
    ],
    outputs: ['cli/dist'],
    command: ['npm', 'run', 'build'],
    cwd: 'cli',
  },
  console: {
    // codegen (from the printed schema and the .graphql operations), type check, vite build. src/gql is
    // codegen's output inside src/: hashed after the build like the rest, so it is unchanged next time.
    inputs: [
      'admin-web/src',
      'admin-web/public',
      'admin-web/index.html',
      'admin-web/vite.config.ts',
      'admin-web/docs-pages.ts',
      // Published as the console's documentation pages (admin-web/docs-pages.ts).
      'README.md',
      'docs',
      'admin-web/codegen.ts',
      'admin-web/tsconfig.json',
      'admin-web/package.json',
      'docs/schema.graphql',
      // Bundled from its compiled dist/ (the package's default export condition).
      'contract/dist',
      'contract/package.json',
      'package-lock.json',
    ],
    outputs: ['admin-web/dist'],
    command: ['npm', 'run', 'build'],
    cwd: 'admin-web',
  },
};

/** The hash of every file under `entries` (files or folders), by path and content, in a fixed order. */
function hashOf(entries) {
  const hash = createHash('sha256');
  hash.update(`NODE_ENV=${process.env.NODE_ENV ?? ''}\n`);
  for (const entry of entries) {
    const full = path.join(root, entry);
    if (!existsSync(full)) {
      hash.update(`missing ${entry}\n`);
      continue;
    }
    const files = statSync(full).isDirectory()
      ? readdirSync(full, { recursive: true, withFileTypes: true })
          .filter((dirent) => dirent.isFile())
          .map((dirent) => path.join(dirent.parentPath, dirent.name))
          .sort()
      : [full];
    for (const file of files) {
      hash.update(`${path.relative(root, file)}\n`);
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

function stampOf(step) {
  return JSON.stringify({ inputs: hashOf(step.inputs), outputs: hashOf(step.outputs) });
}

function run(name, step) {
  const [command, ...args] = step.command;
  const result = spawnSync(command, args, {
    cwd: path.join(root, step.cwd ?? '.'),
    stdio: 'inherit',
    // npm is npm.cmd on Windows, which only a shell runs.
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error(`build: ${name} failed`);
    process.exit(result.status ?? 1);
  }
}

const requested = process.argv.slice(2);
for (const name of requested) {
  if (!(name in STEPS)) {
    console.error(`build: unknown step ${name} (steps: ${Object.keys(STEPS).join(', ')})`);
    process.exit(2);
  }
}
for (const [name, step] of Object.entries(STEPS)) {
  if (requested.length > 0 && !requested.includes(name)) {
    continue;
  }
  if (!step.inputs) {
    run(name, step);
    continue;
  }
  const stampFile = path.join(stampDir, `${name}.json`);
  const recorded = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : undefined;
  if (recorded && recorded === stampOf(step)) {
    console.log(`build: ${name} is up to date (${step.outputs.join(', ')}), skipped`);
    continue;
  }
  run(name, step);
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile, stampOf(step));
}
