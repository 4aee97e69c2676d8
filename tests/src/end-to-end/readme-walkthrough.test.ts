// The README's GraphQL walk-through, run as written (bash, curl, jq) against a listening admin API:
// with the right password it creates the site and the form; with a wrong one it stops at the login
// with the API's message and a failing status, and nothing after the login runs; with two-factor
// sign-in on, the login stops with the code prompt and the block after it signs in with a code.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@intake/shared/test';
import { ADMIN_PASSWORD, authenticatorCode, startTestAdmin, type TestAdmin } from '@intake/admin-api/test';

const INTRO = 'The same without a browser, with the GraphQL admin API';
const SECOND_FACTOR_INTRO = 'With two-factor sign-in on, the login stops';

/** The first ```sh block after `intro`. */
function blockAfter(intro: string): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(intro)));
  if (readme.indexOf(intro) < 0 || !block?.[1]) {
    throw new Error(`the README has no block after "${intro}"`);
  }
  return block[1];
}

function runWalkThrough(
  url: string,
  password: string,
  code?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const blocks = code === undefined ? [blockAfter(INTRO)] : [blockAfter(INTRO), blockAfter(SECOND_FACTOR_INTRO)];
  const script = blocks
    .join('\n')
    .replace('http://localhost:4000/graphql', `${url}/graphql`)
    .replaceAll('<ADMIN_PASSWORD>', password)
    .replace('<CODE>', code ?? '');
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

  // Last: the owner keeps their second factor from here on.
  it('with two-factor sign-in on, stops at the login with the code prompt and goes on with verifySecondFactor', async () => {
    const token = await admin.login('admin@localhost');
    const started = await admin.gql('mutation { startTwoFactorEnrolment { secret } }', {}, token);
    const secret = started.data!.startTwoFactorEnrolment.secret as string;
    const confirmed = await admin.gql(
      'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
      { code: authenticatorCode(secret, -1) },
      token,
    );
    expect(confirmed.errors).toBeUndefined();
    const run = await runWalkThrough(admin.url, ADMIN_PASSWORD, authenticatorCode(secret));
    expect(run.stderr.trim()).toBe('Enter the code of your authenticator app or a recovery code');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ me: { email: 'admin@localhost', twoFactorEnabled: true } });
  });
});
