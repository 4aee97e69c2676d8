// plan and apply on the example of docs/cli.md, as written: create, apply again (no change), edit,
// prune, and a secret from the environment that is never printed.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, stringify } from 'yaml';
import { CLI_ROOT, json, runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

const SECRET = 'turnstile-secret-0123456789';
const NEW_SECRET = 'turnstile-secret-rotated-9876';

let world: CliWorld;
let dir: string;
let file: string;
let example: string;

/** The first ```yaml block of docs/cli.md: the example the documentation shows. */
async function docsExample(): Promise<string> {
  const markdown = await readFile(path.join(CLI_ROOT, '../docs/cli.md'), 'utf8');
  const match = /```yaml\n([\s\S]*?)```/.exec(markdown);
  if (!match) {
    throw new Error('docs/cli.md has no yaml example');
  }
  return match[1]!;
}

const gql = <T = any>(query: string, variables: Record<string, unknown> = {}) =>
  world.admin.gql<T>(query, variables, world.sessionToken).then((result) => {
    if (result.errors) {
      throw new Error(JSON.stringify(result.errors));
    }
    return result.data!;
  });

const cli = (args: string[], secret = SECRET) => runCli(args, { env: { ...world.env, TURNSTILE_SECRET: secret } });

async function siteNamed(name: string) {
  const { sites } = await gql<{ sites: { id: string; name: string; domain: string | null }[] }>(
    'query { sites { id name domain } }',
  );
  return sites.find((site) => site.name === name);
}

async function formsOf(siteId: string) {
  return (
    await gql(
      `query($siteId: ID!) { forms(siteId: $siteId) { id name code endpointUrl enabled allowedMimeTypes maxFileSize
        notifyEmails honeypotFields maxLinks blockedWords duplicateWindowSeconds retentionDays captchaProvider captchaSecretSet
        fields { name type required maxLength choices } unknownFields } }`,
      { siteId },
    )
  ).forms as Record<string, any>[];
}

async function edit(change: (document: any) => void): Promise<void> {
  const document = parse(await readFile(file, 'utf8'));
  change(document);
  await writeFile(file, stringify(document));
}

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-setup-'));
  file = path.join(dir, 'intake.yaml');
  example = await docsExample();
  await writeFile(file, example);
  // The member the example grants a site to, and a site the file does not name.
  await gql(
    'mutation { createMember(input: { email: "ana@example.com", name: "Ana", role: member, grants: [] }) { member { id } } }',
  );
  const { createSite } = await gql('mutation { createSite(input: { name: "Not in the file" }) { id } }');
  await gql('mutation($siteId: ID!) { createForm(input: { siteId: $siteId, name: "Kept" }) { id } }', {
    siteId: createSite.id,
  });
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('intake plan and apply', () => {
  it('plans the example field by field without printing the secret, and exits 2 with --detailed-exitcode', async () => {
    const plan = await cli(['plan', '-f', file, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(
      '+ create site "Example shop"\n    name: "Example shop"\n    domain: "shop.example.com"',
    );
    expect(plan.stdout).toContain('+ create form "Example shop" / "Contact"');
    expect(plan.stdout).toContain('    retentionDays: 90\n');
    expect(plan.stdout).toContain('    captcha.secret: (secret changes)');
    expect(plan.stdout).toContain(
      '    fields: +email (EMAIL, required)\n    fields: +message (TEXT, maxLength 500)\n' +
        '    fields: +topic (CHOICE, choices sales, support)\n    unknownFields: "drop"\n',
    );
    expect(plan.stdout).toContain('+ create webhook "Example shop" / "Contact" / https://crm.example.com/hooks/intake');
    expect(plan.stdout).toContain('+ create grant "Example shop" / ana@example.com\n    level: "manage"');
    expect(plan.stdout).toContain('Plan: 5 to create, 0 to change, 0 to delete.');
    expect(plan.stdout).not.toContain(SECRET);
    // A plan changes nothing.
    expect(await siteNamed('Example shop')).toBeUndefined();
  });

  it('refuses a file whose secret variable is not set, naming it, before anything is sent', async () => {
    const result = await runCli(['plan', '-f', file], { env: world.env });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(
      'Environment variables not set: TURNSTILE_SECRET (at sites.0.forms.0.captcha.secret)',
    );
  });

  it('refuses a literal secret and an unknown key with the path of each', async () => {
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'version: 1\nsites:\n  - name: A\n    colour: blue\n    forms:\n      - name: F\n        captcha: { provider: TURNSTILE, secret: plain }\n',
    );
    const result = await cli(['plan', '-f', bad]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('sites.0: Unrecognized key: "colour"');
    expect(result.stderr).toContain('sites.0.forms.0.captcha.secret: must be ${env:NAME}');
  });

  it('will not apply without a terminal unless --yes, and changes nothing', async () => {
    const result = await cli(['apply', '-f', file]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('Not a terminal: pass --yes');
    expect(await siteNamed('Example shop')).toBeUndefined();
  });

  it('applies the example: the site, forms with their settings, the webhook and the grant; codes are printed', async () => {
    // Files left readable by others (mode 0644) where apply writes secrets: they are replaced by new
    // files of mode 0600, never written into.
    const secretsFile = path.join(dir, 'webhook-secrets.json');
    await writeFile(secretsFile, '[]\n');
    await chmod(secretsFile, 0o644);
    const fingerprintsFile = path.join(world.configHome, 'intake', 'secret-fingerprints.json');
    await mkdir(path.dirname(fingerprintsFile), { recursive: true });
    await writeFile(fingerprintsFile, '{}\n');
    await chmod(fingerprintsFile, 0o644);
    const result = await cli(['apply', '-f', file, '--yes', '--webhook-secrets', secretsFile]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout).toContain('Applied 5 changes.');

    const site = (await siteNamed('Example shop'))!;
    expect(site.domain).toBe('shop.example.com');
    const forms = await formsOf(site.id);
    expect(forms.map((form) => form.name)).toEqual(['Contact', 'Job applications']);
    for (const form of forms) {
      expect(result.stdout).toContain(
        `form "Example shop" / "${form.name}": code ${form.code}, endpoint ${form.endpointUrl}`,
      );
    }
    expect(forms[0]).toMatchObject({
      notifyEmails: ['sales@shop.example.com'],
      retentionDays: 90,
      honeypotFields: ['website'],
      maxLinks: 3,
      blockedWords: ['casino'],
      duplicateWindowSeconds: 600,
      captchaProvider: 'TURNSTILE',
      captchaSecretSet: true,
      fields: [
        { name: 'email', type: 'EMAIL', required: true, maxLength: null, choices: null },
        { name: 'message', type: 'TEXT', required: false, maxLength: 500, choices: null },
        { name: 'topic', type: 'CHOICE', required: false, maxLength: null, choices: ['sales', 'support'] },
      ],
      unknownFields: 'DROP',
    });
    expect(forms[1]).toMatchObject({
      allowedMimeTypes: ['application/pdf'],
      maxFileSize: 5242880,
      retentionDays: 30,
      fields: [],
      unknownFields: 'REFUSE',
    });
    const { webhooks } = await gql('query($formId: ID!) { webhooks(formId: $formId) { id url description enabled } }', {
      formId: forms[0]!.id,
    });
    expect(webhooks).toEqual([
      { id: expect.any(String), url: 'https://crm.example.com/hooks/intake', description: 'CRM', enabled: true },
    ]);
    const written = JSON.parse(await readFile(secretsFile, 'utf8'));
    expect(written).toEqual([
      expect.objectContaining({ id: webhooks[0].id, secret: expect.stringMatching(/^whsec_/) }),
    ]);
    expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
    expect((await stat(fingerprintsFile)).mode & 0o777).toBe(0o600);
    expect(Object.values(JSON.parse(await readFile(fingerprintsFile, 'utf8')))).toHaveLength(1);
    expect((await readdir(dir)).filter((name) => name.includes('webhook-secrets'))).toEqual(['webhook-secrets.json']);
    expect(result.stdout).not.toContain(written[0].secret);
    const { members } = await gql('query { members { email grants { level site { name } } } }');
    expect(members.find((member: any) => member.email === 'ana@example.com').grants).toEqual([
      { level: 'manage', site: { name: 'Example shop' } },
    ]);
  });

  it('applies again with no change, and plan --detailed-exitcode exits 0', async () => {
    // Fields set elsewhere (the console) on a form whose entry has no `fields` are left alone.
    const site = (await siteNamed('Example shop'))!;
    const jobs = (await formsOf(site.id))[1]!;
    await gql('mutation($id: ID!) { updateForm(id: $id, input: { fields: [{ name: "cv", type: TEXT }] }) { id } }', {
      id: jobs.id,
    });
    const again = await cli(['apply', '-f', file, '--yes', '-o', 'json']);
    const body = json(again);
    expect(body.changes).toEqual([]);
    expect(body.summary).toEqual({ create: 0, update: 0, delete: 0 });
    expect(body.forms).toEqual([
      expect.objectContaining({ site: 'Example shop', form: 'Contact', code: expect.any(String), created: false }),
      expect.objectContaining({ form: 'Job applications', created: false }),
    ]);
    const plan = await cli(['plan', '-f', file, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(`No changes: the server matches ${file}.\n`);
    expect((await formsOf(site.id))[1]!.fields).toEqual([
      { name: 'cv', type: 'TEXT', required: false, maxLength: null, choices: null },
    ]);
  });

  it('plans an edit field by field, and a new secret as "(secret changes)" only', async () => {
    await edit((document) => {
      const contact = document.sites[0].forms[0];
      contact.retentionDays = 30;
      contact.maxLinks = null;
      contact.fields[1].maxLength = 1000;
      contact.webhooks[0].enabled = false;
      document.sites[0].members[0].level = 'read';
      document.sites[0].forms.splice(1, 1);
    });
    const plan = await cli(['plan', '-f', file, '-o', 'json', '--detailed-exitcode'], NEW_SECRET);
    expect(plan.code).toBe(2);
    expect(plan.stdout).not.toContain(NEW_SECRET);
    expect(json(plan).changes).toEqual([
      {
        action: 'update',
        kind: 'form',
        address: 'form "Example shop" / "Contact"',
        fields: [
          { field: 'retentionDays', from: 90, to: 30 },
          { field: 'maxLinks', from: 3, to: null },
          { field: 'fields.message.maxLength', from: 500, to: 1000 },
          { field: 'captcha.secret', secret: true },
        ],
      },
      {
        action: 'update',
        kind: 'webhook',
        address: 'webhook "Example shop" / "Contact" / https://crm.example.com/hooks/intake',
        fields: [{ field: 'enabled', from: true, to: false }],
      },
      {
        action: 'update',
        kind: 'grant',
        address: 'grant "Example shop" / ana@example.com',
        fields: [{ field: 'level', from: 'manage', to: 'read' }],
      },
    ]);
    // Without the new secret, the same file plans no secret change.
    const sameSecret = json(await cli(['plan', '-f', file, '-o', 'json']));
    expect(sameSecret.changes[0].fields).toEqual([
      { field: 'retentionDays', from: 90, to: 30 },
      { field: 'maxLinks', from: 3, to: null },
      { field: 'fields.message.maxLength', from: 500, to: 1000 },
    ]);
  });

  it('applies the edit; with --prune it deletes the form that left the file and nothing outside the file', async () => {
    const prunePlan = await cli(['plan', '-f', file, '--prune'], NEW_SECRET);
    expect(prunePlan.stdout).toContain('- delete form "Example shop" / "Job applications"');
    expect(prunePlan.stdout).toContain('    fields: ~message maxLength 500 → 1000\n');
    expect(prunePlan.stdout).toContain('Plan: 0 to create, 3 to change, 1 to delete.');

    const applied = await cli(['apply', '-f', file, '--yes', '--prune'], NEW_SECRET);
    expect(applied.code).toBe(0);
    expect(applied.stdout).not.toContain(NEW_SECRET);
    const site = (await siteNamed('Example shop'))!;
    const forms = await formsOf(site.id);
    expect(forms.map((form) => form.name)).toEqual(['Contact']);
    expect(forms[0]).toMatchObject({ retentionDays: 30, maxLinks: null, unknownFields: 'DROP' });
    expect(forms[0]!.fields.map((field: any) => [field.name, field.maxLength])).toEqual([
      ['email', null],
      ['message', 1000],
      ['topic', null],
    ]);
    const { members } = await gql('query { members { email grants { level } } }');
    expect(members.find((member: any) => member.email === 'ana@example.com').grants).toEqual([{ level: 'read' }]);
    // The site the file does not name keeps its form.
    const other = (await siteNamed('Not in the file'))!;
    expect((await formsOf(other.id)).map((form) => form.name)).toEqual(['Kept']);

    const again = await cli(['plan', '-f', file, '--prune', '--detailed-exitcode'], NEW_SECRET);
    expect(again.code).toBe(0);
  });

  it('creates a chat webhook and changes a format from the file; an unknown format is refused by path', async () => {
    await edit((document) => {
      const hooks = document.sites[0].forms[0].webhooks;
      hooks[0].format = 'SLACK';
      hooks.push({ url: 'https://chat.example.com/teams', format: 'TEAMS' });
    });
    const plan = json(await cli(['plan', '-f', file, '-o', 'json'], NEW_SECRET));
    expect(plan.changes).toEqual([
      {
        action: 'update',
        kind: 'webhook',
        address: 'webhook "Example shop" / "Contact" / https://crm.example.com/hooks/intake',
        fields: [{ field: 'format', from: 'STANDARD', to: 'SLACK' }],
      },
      {
        action: 'create',
        kind: 'webhook',
        address: 'webhook "Example shop" / "Contact" / https://chat.example.com/teams',
        fields: [
          { field: 'url', to: 'https://chat.example.com/teams' },
          { field: 'format', to: 'TEAMS' },
        ],
      },
    ]);
    expect((await cli(['apply', '-f', file, '--yes'], NEW_SECRET)).code).toBe(0);
    const site = (await siteNamed('Example shop'))!;
    const [contact] = await formsOf(site.id);
    const { webhooks } = await gql('query($formId: ID!) { webhooks(formId: $formId) { url format } }', {
      formId: contact!.id,
    });
    expect(webhooks).toEqual([
      { url: 'https://crm.example.com/hooks/intake', format: 'SLACK' },
      { url: 'https://chat.example.com/teams', format: 'TEAMS' },
    ]);
    expect((await cli(['plan', '-f', file, '--detailed-exitcode'], NEW_SECRET)).code).toBe(0);

    await edit((document) => {
      document.sites[0].forms[0].webhooks[1].format = 'IRC';
    });
    const refused = await cli(['plan', '-f', file], NEW_SECRET);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('sites.0.forms.0.webhooks.1.format');
    await edit((document) => {
      document.sites[0].forms[0].webhooks[1].format = 'TEAMS';
    });
  });

  it('prunes the webhooks and grants of the lists the file declares, and only those', async () => {
    await edit((document) => {
      document.sites[0].forms[0].webhooks = [];
      document.sites[0].members = [];
    });
    const applied = json(await cli(['apply', '-f', file, '--yes', '--prune', '-o', 'json'], NEW_SECRET));
    expect(applied.changes.map((change: any) => `${change.action} ${change.kind}`)).toEqual([
      'delete webhook',
      'delete webhook',
      'delete grant',
    ]);
    const site = (await siteNamed('Example shop'))!;
    const [contact] = await formsOf(site.id);
    const { webhooks } = await gql('query($formId: ID!) { webhooks(formId: $formId) { id } }', { formId: contact!.id });
    expect(webhooks).toEqual([]);
    // Leaving a list out manages nothing: a webhook added by hand stays, even with --prune.
    await gql(
      'mutation($formId: ID!) { createWebhook(input: { formId: $formId, url: "https://other.example.com/h" }) { secret } }',
      {
        formId: contact!.id,
      },
    );
    await edit((document) => {
      delete document.sites[0].forms[0].webhooks;
    });
    const plan = await cli(['plan', '-f', file, '--prune', '--detailed-exitcode'], NEW_SECRET);
    expect(plan.code).toBe(0);
  });

  it('prints the API own words when it refuses a value', async () => {
    await edit((document) => {
      document.sites[0].domain = 'not a domain';
    });
    const result = await cli(['apply', '-f', file, '--yes'], NEW_SECRET);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[BAD_USER_INPUT, field input\.domain\]/);
  });
});
