// plan asks the server to check what apply would send (validateSetup), against a listening admin
// API: a change the API would refuse fails the plan, named with the API's own words, and nothing is
// made (the refusals apply would otherwise meet half way, after making the first form).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

const LOOPBACK = 'http://127.0.0.1:9/hook';

let world: CliWorld;
let dir: string;

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-setup-dry-run-'));
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

async function plan(setup: unknown, extra: string[] = []) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, stringify({ version: 1, ...(setup as object) }));
  return runCli(['plan', '-f', file, ...extra], { env: world.env });
}

async function state() {
  const token = world.sessionToken;
  const sites = (await world.admin.gql<{ sites: { name: string }[] }>('query { sites { name } }', {}, token)).data!;
  const audit = await world.admin.gql<{ auditLog: { totalCount: number } }>(
    'query { auditLog(first: 1) { totalCount } }',
    {},
    token,
  );
  return { sites: sites.sites.map((site) => site.name), audit: audit.data?.auditLog.totalCount };
}

const halfWay = {
  sites: [
    {
      name: 'Dry run',
      forms: [
        { name: 'First', fields: [{ name: 'email', type: 'EMAIL', required: true }] },
        { name: 'Second', webhooks: [{ url: LOOPBACK }] },
        // maxLength on a NUMBER: a rule of the API only, which the CLI does not repeat.
        { name: 'Third', fields: [{ name: 'age', type: 'NUMBER', maxLength: 3 }] },
      ],
    },
  ],
};

describe('plan with the server dry run', () => {
  it('fails on a loopback webhook and refused fields, naming each change and the reason, and makes nothing', async () => {
    const before = await state();
    const result = await plan(halfWay);
    expect(result.code).toBe(1);
    // The plan is shown, then what the server would refuse of it.
    expect(result.stdout).toContain(`+ create webhook "Dry run" / "Second" / ${LOOPBACK}`);
    expect(result.stderr).toContain('The server would refuse 2 of these changes (nothing was changed):\n');
    expect(result.stderr).toContain(
      `webhook "Dry run" / "Second" / ${LOOPBACK}: input.url must not point to a loopback, private, link-local or reserved address`,
    );
    expect(result.stderr).toContain('WEBHOOK_ALLOW_PRIVATE=true');
    expect(result.stderr).toContain('[BAD_USER_INPUT, field input.url]');
    expect(result.stderr).toContain(
      'form "Dry run" / "Third": input.fields.0.maxLength applies only to TEXT, EMAIL and LIST fields [BAD_USER_INPUT, field input.fields.0.maxLength]',
    );
    expect(await state()).toEqual(before);
  });

  it('says the same to a script with --output json', async () => {
    const result = await plan(halfWay, ['--output', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).summary).toEqual({ create: 5, update: 0, delete: 0 });
    const { errors } = JSON.parse(result.stderr) as { errors: { message: string; extensions: unknown }[] };
    expect(errors).toEqual([
      {
        message: expect.stringMatching(/^webhook "Dry run" \/ "Second" \/ http:\/\/127\.0\.0\.1:9\/hook: input\.url /),
        extensions: { code: 'BAD_USER_INPUT', field: 'input.url' },
      },
      {
        message: expect.stringMatching(/^form "Dry run" \/ "Third": input\.fields\.0\.maxLength /),
        extensions: { code: 'BAD_USER_INPUT', field: 'input.fields.0.maxLength' },
      },
    ]);
  });

  it('passes a plan the server would take, and still makes nothing', async () => {
    const before = await state();
    const result = await plan(
      {
        sites: [
          { name: 'Dry run', forms: [{ name: 'First', webhooks: [{ url: 'https://hooks.example.com/first' }] }] },
        ],
      },
      ['--detailed-exitcode'],
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(await state()).toEqual(before);
  });
});
