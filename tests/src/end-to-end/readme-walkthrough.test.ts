// The README's GraphQL walk-through, run as written (bash, curl, jq) against a listening admin API:
// with the right password it creates the site and the form; with a wrong one it stops at the login
// with the API's message and a failing status, and nothing after the login runs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@intake/shared/test';
import { ADMIN_PASSWORD, startTestAdmin, type TestAdmin } from '@intake/admin-api/test';

const INTRO = 'The same without a browser, with the GraphQL admin API';

/** The first ```sh block after the walk-through's introduction. */
function walkThrough(): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(INTRO)));
  if (!block?.[1]) {
    throw new Error('the README has no walk-through block');
  }
  return block[1];
}

function runWalkThrough(url: string, password: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = walkThrough()
    .replace('http://localhost:4000/graphql', `${url}/graphql`)
    .replace('<ADMIN_PASSWORD>', password);
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['--norc', '--noprofile', '-c', script],
      { env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout, stderr });
      },
    );
  });
}

describe('the README walk-through', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin({ ADMIN_EMAIL: 'admin@localhost' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function siteNames(): Promise<string[]> {
    const token = await admin.login('admin@localhost');
    const result = await admin.gql<{ sites: { name: string }[] }>('{ sites { name } }', {}, token);
    return result.data!.sites.map((site) => site.name);
  }

  it('stops at a failed login with the API message and a failing status, and goes no further', async () => {
    const run = await runWalkThrough(admin.url, 'not the password');
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toBe('Invalid e-mail or password');
    expect(run.stdout).toBe('');
    expect(await siteNames()).toEqual([]);
  });

  it('creates the site and its form with the right password', async () => {
    const run = await runWalkThrough(admin.url, ADMIN_PASSWORD);
    expect(run).toEqual({ code: 0, stdout: expect.stringContaining('"createForm"'), stderr: '' });
    expect(run.stdout).toContain('"siteApiView"');
    expect(run.stdout).toContain('"name": "Contact"');
    expect(await siteNames()).toEqual(['Shop']);
  });
});
