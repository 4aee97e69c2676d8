// `intake audit verify` and `intake audit export` against a listening admin API: an intact chain
// exits 0, an entry changed with SQL exits 1 naming its sequence number, and an export written to a
// file (mode 0600) verifies offline with scripts/verify-audit-log.mjs and the published keys.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI_ROOT, json, runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

let world: CliWorld;
let dir: string;
const cli = (...args: string[]) => runCli(args, { env: world.env });
const cliAsSession = (...args: string[]) => runCli(args, { env: { ...world.env, INTAKE_TOKEN: world.sessionToken } });
const sql = (query: string, params: unknown[] = []) => world.admin.services.db.em.fork().execute(query, params);

/** The documented offline check (docs/audit-log.md), run as an auditor would. */
async function verifyOffline(file: string): Promise<{ code: number | null; result: Record<string, unknown> }> {
  const jwks = path.join(dir, 'jwks.json');
  await writeFile(jwks, JSON.stringify(await world.admin.services.auditChain.signing!.publicKeys()));
  const child = spawn(process.execPath, [path.join(CLI_ROOT, '../scripts/verify-audit-log.mjs'), file, jwks]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, result: JSON.parse(out) as Record<string, unknown> };
}

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-cli-audit-'));
  // A few audited changes beside the login and the token the world made.
  for (const name of ['One', 'Two', 'Three']) {
    expect((await cli('sites', 'create', '--name', name)).code).toBe(0);
  }
});

afterAll(async () => {
  await world?.close();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('intake audit verify and export', () => {
  it('needs a login: an API token gets the API’s FORBIDDEN, in its words', async () => {
    for (const args of [
      ['audit', 'verify'],
      ['audit', 'export'],
    ]) {
      const refused = await cli(...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^intake: .*administrator.* \[FORBIDDEN\]\n$/);
      expect(refused.stdout).toBe('');
    }
  });

  it('`intake audit` itself still lists the log beside its subcommands', async () => {
    const listed = json(await cliAsSession('audit', '--action', 'createSite', '-o', 'json'));
    expect(listed.entries.map((entry: any) => [entry.action, entry.outcome])).toEqual(
      Array(3).fill(['createSite', 'SUCCESS']),
    );
  });

  it('exports to a file with mode 0600 that verifies offline with the published keys', async () => {
    const file = path.join(dir, 'audit-log.ndjson');
    const written = await cliAsSession('audit', 'export', '--file', file);
    expect(written.code).toBe(0);
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    const entries = lines.filter((line) => line.type === 'entry').length;
    expect(entries).toBeGreaterThanOrEqual(4);
    expect(written.stdout).toBe(`Wrote ${entries} audit entries to ${file}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(verifyOffline(file)).resolves.toMatchObject({ code: 0, result: { valid: true } });

    const toStdout = await cliAsSession('audit', 'export');
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout.split('\n')[0]).toContain('"type":"intake-audit-log"');
    const asJson = json(await cliAsSession('audit', 'export', '--file', file, '-o', 'json'));
    expect(asJson).toMatchObject({ file, entries: expect.any(Number), fileName: expect.stringMatching(/\.ndjson$/) });
  });

  it('verify --witness: the newest entries deleted with their checkpoints are found against a kept checkpoint', async () => {
    // An export signs a checkpoint over the log's head.
    expect((await cliAsSession('audit', 'export', '--file', path.join(dir, 'before-witness.ndjson'))).code).toBe(0);
    // What a witness polls and keeps: the public endpoint's answer, saved to a file.
    const witnessFile = path.join(dir, 'witness.json');
    const polled = await fetch(`${world.admin.url}/.well-known/audit-checkpoint`);
    await writeFile(witnessFile, `${await polled.text()}\n`);
    const { seq: witnessedSeq } = JSON.parse(await readFile(witnessFile, 'utf8')) as { seq: number };
    expect((await cliAsSession('audit', 'verify', '--witness', witnessFile)).code).toBe(0);

    // A database-only attacker deletes the newest entries and the checkpoints over them.
    const kept = witnessedSeq - 2;
    const [last] = (await sql(`select "hash", "digest" from "audit_log" where "seq" = ?`, [kept])) as [
      { hash: string; digest: string },
    ];
    await sql(`delete from "audit_log" where "seq" > ?`, [kept]);
    await sql(`delete from "audit_checkpoints" where "seq" > ?`, [kept]);
    await sql(`update "audit_chain_head" set "seq" = ?, "chained_seq" = ?, "hash" = ?, "digest" = ?`, [
      kept,
      kept,
      last!.hash,
      last!.digest,
    ]);
    expect((await cliAsSession('audit', 'verify')).code).toBe(0);
    const found = await cliAsSession('audit', 'verify', '--witness', witnessFile);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain(
      `the log ends at entry ${kept}, before the witnessed checkpoint at entry ${witnessedSeq}`,
    );

    const unreadable = await cliAsSession('audit', 'verify', '--witness', path.join(dir, 'missing.json'));
    expect([unreadable.code, unreadable.stderr]).toEqual([64, expect.stringContaining('cannot read the witness file')]);
    await writeFile(path.join(dir, 'not-a-checkpoint'), 'hello\n');
    const garbled = await cliAsSession('audit', 'verify', '--witness', path.join(dir, 'not-a-checkpoint'));
    expect([garbled.code, garbled.stderr]).toEqual([64, expect.stringContaining('is not a signed checkpoint')]);
  });

  it('verify: exit 0 on an intact chain; exit 1 naming the entry whose details were changed with SQL', async () => {
    const intact = await cliAsSession('audit', 'verify');
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(/^Audit log intact: \d+ entries checked\n$/);
    const answer = json(await cliAsSession('audit', 'verify', '-o', 'json'));
    expect(answer).toEqual({ valid: true, checkedEntries: expect.any(Number), firstBadSequence: null, problem: null });

    const [{ seq }] = (await sql(
      `select "seq" from "audit_log" where "action" = 'createSite' order by "seq" limit 1 offset 1`,
    )) as [{ seq: number | string }];
    const tampered = Number(seq);
    await sql(`update "audit_log" set "details" = '{"name": "Changed"}' where "seq" = ?`, [tampered]);

    const broken = await cliAsSession('audit', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe(
      `Audit log NOT intact at entry ${tampered}: entry ${tampered} does not match its hash: it was changed, or moved from elsewhere in the log\n` +
        `${tampered - 1} entries checked and intact before it\n`,
    );
    const brokenJson = await cliAsSession('audit', 'verify', '-o', 'json');
    expect(brokenJson.code).toBe(1);
    expect(JSON.parse(brokenJson.stdout)).toMatchObject({
      valid: false,
      firstBadSequence: tampered,
      checkedEntries: tampered - 1,
    });
  });
});
