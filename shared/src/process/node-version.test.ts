// A newcomer on a Node.js older than `engines.node`: every entry point says so in one line and exits
// 1 before anything loads, and `npm install` refuses (engine-strict). Run with the machine's own old
// Node, found on disk; under CI=true a missing old Node fails instead of skipping.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../test/processes.js';
import { describeWithRealPart } from '../test/real-part.js';

const REQUIRED = '22.17';
const CANDIDATES = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'];

interface OldNode {
  node: string;
  version: string;
  /** The npm installed beside it, when there is one. */
  npm?: string;
}

/** Whether `version` (`x.y.z`) is older than `REQUIRED`. */
function olderThanRequired(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  const [requiredMajor, requiredMinor] = REQUIRED.split('.').map(Number);
  return major! < requiredMajor! || (major === requiredMajor && minor! < requiredMinor!);
}

/** The first Node.js on disk older than `REQUIRED`, or why there is none. */
function findOldNode(): OldNode | string {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node'));
  for (const node of [...CANDIDATES, ...onPath]) {
    if (!existsSync(node)) {
      continue;
    }
    const probe = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 });
    const version = probe.stdout?.trim() ?? '';
    if (probe.status === 0 && /^\d+\.\d+\.\d+$/.test(version) && olderThanRequired(version)) {
      const npm = path.join(path.dirname(node), 'npm');
      return { node, version, ...(existsSync(npm) ? { npm } : {}) };
    }
  }
  return `no Node.js older than ${REQUIRED} found (${CANDIDATES.join(', ')} or PATH)`;
}

/** `describe` with the old Node; skipped with the reason when there is none, failing under CI=true. */
function describeWithOldNode(title: string, body: (old: OldNode) => void): void {
  const found = findOldNode();
  describeWithRealPart(
    typeof found === 'string' ? title : `${title} (Node ${found.version} at ${found.node})`,
    typeof found === 'string'
      ? { available: false, reason: found, placeholder: { node: 'absent', version: '0.0.0' } }
      : { available: true, value: found },
    body,
  );
}

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (without blocking the test's event loop). */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** PATH with the old Node's directory first, so that `node` in npm scripts is the old one. */
function pathWith(old: OldNode): string {
  const current = path.dirname(process.execPath);
  const rest = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== current);
  return [path.dirname(old.node), ...rest].join(path.delimiter);
}

const scratchDirs: string[] = [];
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'intake-old-node-'));
  scratchDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of scratchDirs) {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('checks the same version as engines.node in package.json', () => {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
  };
  expect(manifest.engines.node).toBe(`>=${REQUIRED}`);
  expect(readFileSync(path.join(REPO_ROOT, 'scripts/check-node.js'), 'utf8')).toContain(
    `const required = { major: ${REQUIRED.split('.')[0]}, minor: ${REQUIRED.split('.')[1]} };`,
  );
});

it('passes silently under the current Node', async () => {
  const result = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/check-node.js')], {
    cwd: scratchDir(),
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
});

it('makes npm refuse to install on an old Node, without naming a registry', () => {
  const settings = readFileSync(path.join(REPO_ROOT, '.npmrc'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  expect(settings).toEqual(['engine-strict=true']);
});

describeWithOldNode('on an old Node.js', (old) => {
  const line = `Intake needs Node.js ${REQUIRED} or later, 24 LTS recommended; this is ${old.version}\n`;

  it.each(['scripts/check-node.js', 'scripts/start.js'])(
    'node %s: one line, exit 1, nothing loaded',
    async (script) => {
      const cwd = scratchDir();
      const result = await run(old.node, [path.join(REPO_ROOT, script)], { cwd, env: { PATH: pathWith(old) } });
      expect(result).toEqual({ status: 1, stdout: '', stderr: line });
      // start.js would write a .env on a first start: the check stopped it before anything ran.
      expect(existsSync(path.join(cwd, '.env'))).toBe(false);
    },
  );

  it.each(['start', 'start:gateway', 'start:admin', 'start:worker', 'migrate', 'test'])(
    'npm run %s: the line before the build, exit 1',
    async (script) => {
      expect(old.npm).toBeDefined();
      // The scripts of package.json in a directory holding only them and the check: had the check
      // not stopped the script, its next command would fail loudly instead of building or starting.
      const project = scratchDir();
      mkdirSync(path.join(project, 'scripts'));
      for (const file of ['package.json', 'scripts/check-node.js']) {
        copyFileSync(path.join(REPO_ROOT, file), path.join(project, file));
      }
      const result = await run(old.npm!, ['run', '--silent', script], {
        cwd: project,
        env: { PATH: pathWith(old), HOME: process.env.HOME ?? '' },
      });
      expect(result).toEqual({ status: 1, stdout: '', stderr: line });
    },
    60_000,
  );

  it('npm install: refused with the required version (engine-strict)', async () => {
    expect(old.npm).toBeDefined();
    // A copy of the manifests, so that the install cannot touch the tree's node_modules.
    const project = scratchDir();
    const manifests = ['package.json', 'package-lock.json', '.npmrc'];
    for (const workspace of ['migrations', 'shared', 'admin-api', 'gateway']) {
      mkdirSync(path.join(project, workspace));
      manifests.push(path.join(workspace, 'package.json'));
    }
    for (const file of manifests) {
      copyFileSync(path.join(REPO_ROOT, file), path.join(project, file));
    }
    const result = await run(old.npm!, ['install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: project,
      env: { PATH: pathWith(old), HOME: process.env.HOME ?? '' },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('EBADENGINE');
    expect(result.stderr).toContain(`"node":">=${REQUIRED}"`);
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
  }, 60_000);
});
