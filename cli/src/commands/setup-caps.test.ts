// A form's cap and schedule in a setup file (docs/submissions.md#caps-and-a-schedule): applied with
// the form and its declared e-mail field, then matched again without a change (times compared as
// moments, whatever zone the file writes them in), and a bad time refused before anything is sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCli, startCliWorld, type CliWorld } from '../test/cli-harness.js';

let world: CliWorld;
let dir: string;

const cli = (args: string[]) => runCli(args, { env: world.env });

const FILE = `version: 1
sites:
  - name: Conference
    forms:
      - name: Sign-up
        fields:
          - { name: email, type: EMAIL, required: true }
        maxSubmissions: 200
        maxSubmissionsPerAddress: 1
        capAddressField: email
        opensAt: "2030-03-01T09:00:00+01:00"
        closesAt: "2030-03-15T00:00:00Z"
`;

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-setup-caps-'));
});

afterAll(async () => {
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('caps and a schedule in a setup file', () => {
  it('applies them, then plans no change', async () => {
    const file = path.join(dir, 'intake.yaml');
    await writeFile(file, FILE);
    const plan = await cli(['plan', '-f', file]);
    expect(plan.stdout).toContain('maxSubmissions');
    expect(plan.stdout).toContain('opensAt');
    const applied = await cli(['apply', '-f', file, '--yes']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const { data } = await world.admin.gql<any>(`query { sites { id name } }`, {}, world.sessionToken);
    const siteId = data.sites.find((site: { name: string }) => site.name === 'Conference').id;
    const forms = await world.admin.gql<any>(
      `query($siteId: ID!) { forms(siteId: $siteId) {
        maxSubmissions maxSubmissionsPerAddress capAddressField opensAt closesAt closedReason } }`,
      { siteId },
      world.sessionToken,
    );
    expect(forms.data.forms).toEqual([
      {
        maxSubmissions: 200,
        maxSubmissionsPerAddress: 1,
        capAddressField: 'email',
        opensAt: '2030-03-01T08:00:00.000Z',
        closesAt: '2030-03-15T00:00:00.000Z',
        closedReason: 'NOT_YET_OPEN',
      },
    ]);
    const again = await cli(['plan', '-f', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });

  it('refuses a time without a zone before anything is sent', async () => {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, FILE.replace('"2030-03-15T00:00:00Z"', '"2030-03-15 00:00"'));
    const refused = await cli(['plan', '-f', file]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('closesAt');
  });
});
