// On a terminal (a pseudo-terminal from util-linux `script`): apply asks before changing anything,
// and an export to a file shows its progress on stderr.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeSubmission } from '@intake/admin-api/test';
import { CLI_BIN, startCliWorld, type CliWorld } from '../test/cli-harness.js';

let world: CliWorld;
let dir: string;

const shellQuote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** Runs intake under a pseudo-terminal of 100 columns; types `answer` once `prompt` shows. */
function onTerminal(args: string[], interaction?: { prompt: string; answer: string }, columns = 100) {
  const command = `stty cols ${columns} rows 30; ${[process.execPath, CLI_BIN, ...args].map(shellQuote).join(' ')}`;
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...world.env },
      stdio: 'pipe',
    });
    let output = '';
    let answered = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (interaction && !answered && output.includes(interaction.prompt)) {
        answered = true;
        child.stdin.write(interaction.answer);
      }
    });
    // A run that hangs ends here with what it printed, rather than at jest's timeout with nothing.
    const timer = setTimeout(() => child.kill(), 30000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, output });
    });
  });
}

async function siteNames(): Promise<string[]> {
  const result = await world.admin.gql<{ sites: { name: string }[] }>('query { sites { name } }', {}, world.apiToken);
  return result.data!.sites.map((site) => site.name);
}

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-terminal-'));
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('on a terminal', () => {
  it('apply shows the plan and asks; no changes nothing, yes applies', async () => {
    const file = path.join(dir, 'intake.yaml');
    await writeFile(file, 'version: 1\nsites:\n  - name: Asked\n    forms:\n      - name: Contact\n');
    const declined = await onTerminal(['apply', '-f', file], { prompt: 'Apply these changes?', answer: 'n\r' });
    expect(declined.output).toContain('+ create site "Asked"');
    expect(declined.output).toContain('Apply cancelled: nothing changed');
    expect(declined.code).toBe(64);
    expect(await siteNames()).toEqual([]);

    const accepted = await onTerminal(['apply', '-f', file], { prompt: 'Apply these changes?', answer: 'y\r' });
    expect(accepted.code).toBe(0);
    expect(accepted.output).toMatch(/form "Asked" \/ "Contact": code \S+, endpoint \S+/);
    expect(await siteNames()).toEqual(['Asked']);
  });

  it('export to a file shows how many submissions of how many it has written', async () => {
    const site = await world.admin.gql<any>(
      'mutation { createSite(input: { name: "Exported" }) { id } }',
      {},
      world.apiToken,
    );
    const form = await world.admin.gql<any>(
      'mutation($siteId: ID!) { createForm(input: { siteId: $siteId, name: "F" }) { id } }',
      { siteId: site.data.createSite.id },
      world.apiToken,
    );
    const formId = form.data.createForm.id as string;
    for (let index = 0; index < 3; index += 1) {
      await makeSubmission(world.admin.services, { id: formId } as Parameters<typeof makeSubmission>[1], {
        data: { n: index },
      });
    }
    const file = path.join(dir, 'out.ndjson');
    const result = await onTerminal(['export', '--form', formId, '--format', 'ndjson', '--out', file]);
    expect(result.code).toBe(0);
    expect(result.output).toContain('of 3 submissions');
    expect(result.output).toMatch(/Exported \d+\.\d KiB to .*out\.ndjson/);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(3);

    // A terminal that gives no width gets no progress line (ora would clear lines without end).
    const bare = await onTerminal(['export', '--form', formId, '--format', 'ndjson', '--out', file], undefined, 0);
    expect(bare.code).toBe(0);
    expect(bare.output).not.toContain('Exporting');
    expect(bare.output).toMatch(/Exported \d+\.\d KiB to .*out\.ndjson/);
  });
});
