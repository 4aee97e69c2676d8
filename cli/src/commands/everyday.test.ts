// The everyday commands as a user runs them, against a listening admin API: sites, forms, webhooks,
// API tokens, submissions, export, erasure; JSON for scripts, the API's own words on a refusal.
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeSubmission } from '@intake/admin-api/test';
import { json, runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

let world: CliWorld;
let dir: string;
const cli = (...args: string[]) => runCli(args, { env: world.env });
const cliAsSession = (...args: string[]) => runCli(args, { env: { ...world.env, INTAKE_TOKEN: world.sessionToken } });

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-cli-'));
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('everyday commands', () => {
  let siteId: string;
  let formId: string;

  it('sites: create, list, show, update, token, rotate-token', async () => {
    const created = json(await cli('sites', 'create', '--name', 'Shop', '--domain', 'Shop.Example.com', '-o', 'json'));
    siteId = created.id;
    expect(created).toMatchObject({ name: 'Shop', domain: 'shop.example.com' });
    const listed = await cli('sites', 'list');
    expect(listed.stdout).toMatch(/^ID {2,}NAME {2,}DOMAIN {2,}FORM COUNT {2,}SUBMISSIONS LAST 7 DAYS\n/);
    expect(listed.stdout).toContain(`${siteId}  Shop  shop.example.com`);
    expect(json(await cli('sites', 'show', siteId, '-o', 'json')).name).toBe('Shop');
    expect(json(await cli('sites', 'update', siteId, '--no-domain', '-o', 'json')).domain).toBeNull();

    const before = json(await cli('sites', 'token', siteId, '-o', 'json'));
    expect(before.token).toEqual(expect.any(String));
    const after = json(await cli('sites', 'rotate-token', siteId, '--yes', '-o', 'json'));
    expect(after.token).not.toBe(before.token);
    const refused = await cli('sites', 'rotate-token', siteId);
    expect(refused.code).toBe(64);
  });

  it('forms: create prints the code and endpoint; update sets settings; the API refuses a bad one in its words', async () => {
    const created = await cli('forms', 'create', '--site', siteId, '--name', 'Contact', '--notify', 'a@example.com');
    expect(created.code).toBe(0);
    const [, id, code, endpoint] = /^Form (\S+) created: code (\S+), endpoint (\S+)\n$/.exec(created.stdout)!;
    formId = id!;
    expect(endpoint).toContain(`/api/v1/send/${code}`);
    const updated = json(
      await cli(
        'forms',
        'update',
        formId,
        '--disable',
        '--retention-days',
        '30',
        '--max-links',
        '2',
        '--honeypot',
        'website',
        '-o',
        'json',
      ),
    );
    expect(updated).toMatchObject({ enabled: false, retentionDays: 30, maxLinks: 2, honeypotFields: ['website'] });
    const reset = json(await cli('forms', 'update', formId, '--enable', '--retention-days', 'none', '-o', 'json'));
    expect(reset).toMatchObject({ enabled: true, retentionDays: null, maxLinks: 2 });
    expect(json(await cli('forms', 'list', '--site', siteId, '-o', 'json')).map((form: any) => form.id)).toEqual([
      formId,
    ]);

    const bad = await cli('forms', 'update', formId, '--retention-days', '99999');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^intake: .+ \[BAD_USER_INPUT, field input\.retentionDays\]\n$/);
    const badJson = await cli('forms', 'update', formId, '--retention-days', '99999', '-o', 'json');
    expect(JSON.parse(badJson.stderr).errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.retentionDays',
    });
    const missing = await cli('forms', 'show', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No form 00000000-0000-4000-8000-000000000000');
  });

  it('webhooks: create shows the secret once, update (format too), rotate-secret, test, delete', async () => {
    const created = json(
      await cli(
        'webhooks',
        'create',
        '--form',
        formId,
        '--url',
        'https://hooks.example.com/in',
        '--description',
        'CRM',
        '-o',
        'json',
      ),
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook.format).toBe('STANDARD');
    const webhookId = created.webhook.id;
    // A chat platform's format, and back; an unknown one is refused before anything is sent.
    expect(json(await cli('webhooks', 'update', webhookId, '--format', 'DISCORD', '-o', 'json')).format).toBe(
      'DISCORD',
    );
    expect((await cli('webhooks', 'update', webhookId, '--format', 'IRC')).code).not.toBe(0);
    expect(json(await cli('webhooks', 'update', webhookId, '--format', 'STANDARD', '-o', 'json')).format).toBe(
      'STANDARD',
    );
    const listed = await cli('webhooks', 'list', '--form', formId);
    expect(listed.stdout).toContain(webhookId);
    expect(listed.stdout).not.toContain(created.secret);
    expect(json(await cli('webhooks', 'update', webhookId, '--disable', '-o', 'json')).enabled).toBe(false);
    const rotated = json(await cli('webhooks', 'rotate-secret', webhookId, '--yes', '-o', 'json'));
    expect(rotated.secret).not.toBe(created.secret);
    const disabled = await cli('webhooks', 'test', webhookId);
    expect(disabled.stderr).toMatch(/disabled webhook.* \[BAD_USER_INPUT, field id\]/);
    expect(json(await cli('webhooks', 'update', webhookId, '--enable', '-o', 'json')).enabled).toBe(true);
    expect(json(await cli('webhooks', 'test', webhookId, '-o', 'json'))).toMatchObject({ eventType: 'webhook.test' });
    expect(json(await cli('webhooks', 'delete', webhookId, '--yes', '-o', 'json'))).toEqual({
      id: webhookId,
      deleted: true,
    });
    expect((await cli('webhooks', 'show', webhookId)).code).toBe(1);
  });

  it('tokens: create needs a login (FORBIDDEN to an API token), list, show, revoke', async () => {
    const forbidden = await cli('tokens', 'create', '--name', 'ci');
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/\[FORBIDDEN\]/);
    const created = json(
      await cliAsSession(
        'tokens',
        'create',
        '--name',
        'ci',
        '--level',
        'READ',
        '--site',
        siteId,
        '--expires-in-days',
        '7',
        '-o',
        'json',
      ),
    );
    expect(created.token).toMatch(/^itk_/);
    expect(created.apiToken).toMatchObject({ name: 'ci', level: 'READ', siteIds: [siteId] });
    const id = created.apiToken.id;
    // The new READ token reads the site and may not change it: the API's FORBIDDEN.
    const asRead = (...args: string[]) => runCli(args, { env: { ...world.env, INTAKE_TOKEN: created.token } });
    expect(json(await asRead('sites', 'list', '-o', 'json')).map((site: any) => site.id)).toEqual([siteId]);
    expect((await asRead('sites', 'update', siteId, '--name', 'x')).stderr).toMatch(/\[FORBIDDEN\]/);

    expect(json(await cli('tokens', 'list', '-o', 'json')).map((token: any) => token.name)).toContain('ci');
    expect(json(await cli('tokens', 'show', id, '-o', 'json'))).toMatchObject({ id, level: 'READ' });
    expect((await cli('tokens', 'revoke', id, '--yes')).stdout).toBe(`API token ${id} revoked\n`);
    expect((await asRead('sites', 'list')).stderr).toMatch(/\[UNAUTHENTICATED\]/);
  });

  describe('submissions, export and erasure', () => {
    let ids: string[];

    beforeAll(async () => {
      const form = { id: formId } as Parameters<typeof makeSubmission>[1];
      ids = [];
      for (const [index, email] of ['ada@example.com', 'grace@example.com', 'ada@example.com'].entries()) {
        const { submission } = await makeSubmission(world.admin.services, form, {
          data: { email, message: `Message ${index}` },
          createdAt: new Date(Date.UTC(2026, 10, 20 + index)),
        });
        ids.push(submission.id);
      }
    });

    it('lists with the search filters, pages, shows and deletes', async () => {
      const all = json(await cli('submissions', 'list', '--form', formId, '-o', 'json'));
      expect(all.totalCount).toBe(3);
      expect(all.submissions.map((submission: any) => submission.id)).toEqual([...ids].reverse());
      const found = json(await cli('submissions', 'list', '--form', formId, '--query', 'grace', '-o', 'json'));
      expect(found.submissions.map((submission: any) => submission.id)).toEqual([ids[1]]);
      const dated = json(
        await cli('submissions', 'list', '--form', formId, '--created-before', '2026-11-21', '-o', 'json'),
      );
      expect(dated.submissions.map((submission: any) => submission.id)).toEqual([ids[0]]);
      const page = await cli('submissions', 'list', '--form', formId, '--first', '1');
      expect(page.stdout).toMatch(/1 of 3; next page: --after \S+\n$/);
      const badFilter = await cli('submissions', 'list', '--form', formId, '--query', 'ab');
      expect(badFilter.stderr).toMatch(/\[BAD_USER_INPUT, field filter\.query\]/);

      expect(json(await cli('submissions', 'show', ids[1]!, '-o', 'json')).data).toEqual({
        email: 'grace@example.com',
        message: 'Message 1',
      });
      expect((await cli('submissions', 'delete', ids[1]!, '--yes')).code).toBe(0);
      expect((await cli('submissions', 'show', ids[1]!)).code).toBe(1);
    });

    it('exports as NDJSON to a file and as CSV to stdout, with the filters', async () => {
      const file = path.join(dir, 'export.ndjson');
      // A target and a leftover FILE.partial readable by others (mode 0644), as an earlier run or
      // another tool may leave them: the export lands in a new file of mode 0600, and the leftover
      // never receives a byte of it.
      await writeFile(file, 'an older export\n');
      await chmod(file, 0o644);
      await writeFile(`${file}.partial`, 'left over\n');
      await chmod(`${file}.partial`, 0o644);
      const written = await cli('export', '--form', formId, '--format', 'ndjson', '--out', file, '-o', 'json');
      expect(json(written)).toMatchObject({ file, format: 'ndjson' });
      const lines = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.id)).toEqual([ids[2], ids[0]]);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(`${file}.partial`, 'utf8')).toBe('left over\n');
      expect((await readdir(dir)).filter((name) => name.startsWith('export.ndjson')).sort()).toEqual([
        'export.ndjson',
        'export.ndjson.partial',
      ]);
      const csv = await cli('export', '--form', formId, '--format', 'csv', '--query', 'Message 2');
      expect(csv.code).toBe(0);
      expect(csv.stdout).toContain('ada@example.com');
      expect(csv.stdout.trim().split('\n')).toHaveLength(2);
    });

    it('works the inbox: status, assignee and notes, the inbox filters, and notes in an export', async () => {
      const [, , newest] = ids as [string, string, string];
      expect(json(await cli('submissions', 'status', newest, 'done', '-o', 'json'))).toEqual({
        id: newest,
        status: 'done',
      });
      expect((await cli('submissions', 'assign', newest, 'me')).stdout).toMatch(/is assigned to \S+/);
      expect((await cli('submissions', 'note', newest, 'Called back on Tuesday')).code).toBe(0);
      expect((await cli('submissions', 'status', newest, 'closed')).code).toBe(64);

      const listed = async (...filters: string[]) =>
        json(await cli('submissions', 'list', '--form', formId, ...filters, '-o', 'json')).submissions.map(
          (submission: any) => [submission.id, submission.status, submission.assignee === null],
        );
      expect(await listed('--status', 'done')).toEqual([[newest, 'done', false]]);
      expect(await listed('--mine')).toEqual([[newest, 'done', false]]);
      expect(await listed('--status', 'new', 'open')).toEqual([[ids[0], 'new', true]]);
      const table = await cli('submissions', 'list', '--form', formId);
      expect(table.stdout).toMatch(/STATUS/i);

      const shown = json(await cli('submissions', 'show', newest, '-o', 'json'));
      expect(shown.notes.map((note: any) => note.text)).toEqual(['Called back on Tuesday']);
      const plain = await cli('export', '--form', formId, '--format', 'ndjson');
      expect(JSON.parse(plain.stdout.split('\n')[0]!)).not.toHaveProperty('notes');
      const noted = await cli('export', '--form', formId, '--format', 'ndjson', '--notes');
      const first = JSON.parse(noted.stdout.split('\n')[0]!);
      expect([first.id, first.status, first.notes.map((note: any) => note.text)]).toEqual([
        newest,
        'done',
        ['Called back on Tuesday'],
      ]);
    });

    it('erasure: preview lists, erase asks (--yes here) and erases', async () => {
      const preview = json(await cli('erasure', 'preview', 'ADA@example.com', '-o', 'json'));
      expect(preview.map((candidate: any) => candidate.id).sort()).toEqual([ids[0], ids[2]].sort());
      expect(preview[0].matchingFields).toEqual(['email']);
      const refused = await cli('erasure', 'erase', 'ada@example.com');
      expect(refused.code).toBe(64);
      const erased = json(await cli('erasure', 'erase', 'ada@example.com', '--yes', '-o', 'json'));
      expect(erased.erasedIds.sort()).toEqual([ids[0], ids[2]].sort());
      expect(json(await cli('submissions', 'list', '--form', formId, '-o', 'json')).totalCount).toBe(0);
    });
  });

  it('forms and sites delete (and the audit log records them, for a login)', async () => {
    expect(json(await cli('forms', 'delete', formId, '--yes', '-o', 'json'))).toEqual({ id: formId, deleted: true });
    expect(json(await cli('sites', 'delete', siteId, '--yes', '-o', 'json'))).toEqual({ id: siteId, deleted: true });
    expect((await cli('sites', 'delete', siteId, '--yes')).code).toBe(1);
    const audit = json(await cliAsSession('audit', '--action', 'deleteSite', '-o', 'json'));
    // Newest first: the repeat found no site (a failure, NOT_FOUND), the first delete succeeded.
    expect(audit.entries.slice(0, 2)).toMatchObject([
      { action: 'deleteSite', objectId: siteId, outcome: 'FAILURE', errorCode: 'NOT_FOUND' },
      { action: 'deleteSite', objectId: siteId, outcome: 'SUCCESS' },
    ]);
  });
});
