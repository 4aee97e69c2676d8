// The admin API's address and the gateway's, each in its own variable, in one shell (issue 34): the
// command line reads INTAKE_ADMIN_URL, the client's examples INTAKE_GATEWAY_URL, and both work side by
// side. Given the other service's address, each fails naming the setting to check, against a real
// admin API and a real gateway listening on one database.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { startTestAdmin, type TestAdmin } from '@intake/admin-api/test';
import { IntakeClient, IntakeProblem } from '@intake/client';
import { startGateway, type RunningGateway } from '@intake/gateway';
import { makeForm, makeSite, REPO_ROOT } from '@intake/shared/test';

jest.setTimeout(120_000);

let admin: TestAdmin;
let gateway: RunningGateway;
let apiToken: string;
let configHome: string;
let site: { token: string; formCode: string };

/** The built command line, as a user runs it, with only the environment given. */
function intake(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'cli/bin/intake.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: configHome, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  // The command line as `npm run build` makes it (quick when built).
  await promisify(execFile)(process.execPath, [
    path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
    '-b',
    path.join(REPO_ROOT, 'cli'),
    path.join(REPO_ROOT, 'client'),
  ]);
  admin = await startTestAdmin();
  gateway = await startGateway(admin.services);
  const minted = await admin.gql<{ createApiToken: { token: string } }>(
    'mutation { createApiToken(name: "addresses", scope: { level: ADMIN }) { token } }',
    {},
    await admin.login(),
  );
  apiToken = minted.data!.createApiToken.token;
  configHome = await mkdtemp(path.join(tmpdir(), 'intake-addresses-'));
  const made = await makeSite(admin.services);
  site = { token: made.token, formCode: (await makeForm(admin.services, made.site)).code };
});

afterAll(async () => {
  await gateway?.close();
  await admin?.close();
  if (configHome) {
    await rm(configHome, { recursive: true, force: true });
  }
});

const clientOf = (url: string) =>
  new IntakeClient({ url, apiKey: admin.services.config.apiKey, siteToken: site.token, retry: { attempts: 1 } });

describe('the admin API and the gateway in one shell', () => {
  it('each variable reaches its own service', async () => {
    const shell = { INTAKE_ADMIN_URL: admin.url, INTAKE_GATEWAY_URL: gateway.url, INTAKE_TOKEN: apiToken };
    const who = await intake(['whoami', '-o', 'json'], shell);
    expect({ code: who.code, stderr: who.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(who.stdout)).toMatchObject({ email: 'admin@example.com', url: admin.url });
    const stored = await clientOf(shell.INTAKE_GATEWAY_URL).submit(site.formCode, { message: 'hello' });
    expect(stored.id).toEqual(expect.any(String));
  });

  it("the client given the admin API's address says to check its url, not an empty detail", async () => {
    const refused = await clientOf(admin.url)
      .submit(site.formCode, { message: 'hello' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IntakeProblem);
    expect(refused).toMatchObject({ status: 404, code: 'request_invalid' });
    expect((refused as IntakeProblem).detail).toBe(
      `${admin.url} answered 404 without the gateway's problem details: check the client's url (INTAKE_GATEWAY_URL in the documented examples); it must be the gateway's address, not the admin API's.`,
    );
  });

  it.each(['INTAKE_ADMIN_URL', 'INTAKE_URL'])(
    "the command line given the gateway's address in %s names that variable",
    async (variable) => {
      const result = await intake(['sites', 'list'], { [variable]: gateway.url, INTAKE_TOKEN: apiToken });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `intake: ${gateway.url} answered HTTP 404, not GraphQL: check ${variable}: it must be the admin API's address (the one serving the console and /graphql), not the gateway's\n`,
      );
      expect(result.stderr).not.toContain(apiToken);
    },
  );
});
