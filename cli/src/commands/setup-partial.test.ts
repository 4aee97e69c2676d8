// apply refused half way, against a listening admin API: what was made before the refusal is said,
// the first form's code with it, and the signing secrets of the webhooks made are kept; a form whose
// declared fields the API refuses is not left behind without them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

let world: CliWorld;
let dir: string;

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-setup-partial-'));
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

async function formsOf(siteName: string): Promise<{ name: string; code: string; fields: { name: string }[] }[]> {
  const token = world.sessionToken;
  const { data } = await world.admin.gql<{ sites: { id: string; name: string }[] }>(
    'query { sites { id name } }',
    {},
    token,
  );
  const site = data!.sites.find((entry) => entry.name === siteName);
  if (!site) {
    return [];
  }
  const forms = await world.admin.gql<{ forms: { name: string; code: string; fields: { name: string }[] }[] }>(
    'query($siteId: ID!) { forms(siteId: $siteId) { name code fields { name } } }',
    { siteId: site.id },
    token,
  );
  return forms.data!.forms;
}

async function apply(setup: unknown, extra: string[] = []) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, stringify({ version: 1, ...(setup as object) }));
  return runCli(['apply', '-f', file, '--yes', ...extra], { env: world.env });
}

describe('apply stopped by a refusal', () => {
  it('prints what it made, with the first form code, and keeps the new webhook secrets', async () => {
    const secrets = path.join(dir, 'secrets.json');
    const result = await apply(
      {
        sites: [
          {
            name: 'Half way',
            forms: [
              { name: 'First', webhooks: [{ url: 'https://hooks.example.com/first' }] },
              // A loopback address: the API refuses it without WEBHOOK_ALLOW_PRIVATE.
              { name: 'Second', webhooks: [{ url: 'http://127.0.0.1:9/hook' }] },
            ],
          },
        ],
      },
      ['--webhook-secrets', secrets],
    );
    expect(result.code).toBe(1);
    const [first] = (await formsOf('Half way')).filter((form) => form.name === 'First');
    expect(result.stdout).toContain('created form "Half way" / "First"\n');
    expect(result.stdout).toContain(
      '\nStopped at webhook "Half way" / "Second" / http://127.0.0.1:9/hook: 4 of 5 changes made.\n',
    );
    expect(result.stdout).toContain(`form "Half way" / "First": code ${first!.code}, endpoint `);
    expect(result.stdout).toContain('form "Half way" / "Second": code ');
    expect(result.stderr).toMatch(/BAD_USER_INPUT/);
    const kept = JSON.parse(await readFile(secrets, 'utf8')) as { url: string; secret: string }[];
    expect(kept.map((entry) => entry.url)).toEqual(['https://hooks.example.com/first']);
    expect(result.stdout).not.toContain(kept[0]!.secret);
  });

  it('says the same in JSON, with where it stopped', async () => {
    const result = await apply(
      {
        sites: [
          { name: 'In JSON', forms: [{ name: 'A' }, { name: 'B', webhooks: [{ url: 'http://127.0.0.1:9/b' }] }] },
        ],
      },
      ['-o', 'json'],
    );
    expect(result.code).toBe(1);
    const said = JSON.parse(result.stdout) as { stoppedAt: string; forms: { form: string; code: string }[] };
    expect(said.stoppedAt).toBe('webhook "In JSON" / "B" / http://127.0.0.1:9/b');
    expect(said.forms.map((form) => form.form)).toEqual(['A', 'B']);
    expect(JSON.parse(result.stderr).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('does not leave a form behind without the declared fields the API refused', async () => {
    const result = await apply({
      sites: [
        {
          name: 'Whole forms',
          forms: [
            { name: 'Fine', fields: [{ name: 'email', type: 'EMAIL' }] },
            // maxLength on a NUMBER: the CLI leaves this rule to the API, which refuses it.
            { name: 'Refused', fields: [{ name: 'age', type: 'NUMBER', maxLength: 3 }] },
          ],
        },
      ],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/BAD_USER_INPUT/);
    const forms = await formsOf('Whole forms');
    expect(forms.map((form) => ({ name: form.name, fields: form.fields.map((field) => field.name) }))).toEqual([
      { name: 'Fine', fields: ['email'] },
    ]);
    expect(result.stdout).toContain('Stopped at form "Whole forms" / "Refused": 2 of 3 changes made.');
  });
});
