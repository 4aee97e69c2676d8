// Browser posting in a setup file (docs/static-sites.md): applied with the form, matched again
// without a change (origins and addresses compared in the API's spelling), and the challenge
// turned off only when the file says so knowingly.
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
  - name: Bakery
    forms:
      - name: Orders
        browser:
          posting: true
          origins: [https://WWW.bakery.example, "http://localhost:1313/"]
          thankYouUrls: [https://www.bakery.example/thanks]
          challenge: record_only
          challengeDifficulty: 500
          texts: { language: de, title: Danke }
          maxFiles: 1
`;

beforeAll(async () => {
  world = await startCliWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'intake-setup-browser-'));
});

afterAll(async () => {
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('browser posting in a setup file', () => {
  it('applies the settings, then plans no change', async () => {
    const file = path.join(dir, 'intake.yaml');
    await writeFile(file, FILE);
    const plan = await cli(['plan', '-f', file]);
    expect(plan.stdout).toContain('browser.origins');
    expect(plan.stdout).toContain('browser.challenge');
    const applied = await cli(['apply', '-f', file, '--yes']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const { data } = await world.admin.gql<any>(`query { sites { id name } }`, {}, world.sessionToken);
    const siteId = data.sites.find((site: { name: string }) => site.name === 'Bakery').id;
    const forms = await world.admin.gql<any>(
      `query($siteId: ID!) { forms(siteId: $siteId) { browserPosting browserOrigins browserThankYouUrls browserChallenge
        browserChallengeDifficulty browserTexts { language title message } browserMaxFiles } }`,
      { siteId },
      world.sessionToken,
    );
    expect(forms.data.forms).toEqual([
      {
        browserPosting: true,
        browserOrigins: ['https://www.bakery.example', 'http://localhost:1313'],
        browserThankYouUrls: ['https://www.bakery.example/thanks'],
        browserChallenge: 'RECORD_ONLY',
        browserChallengeDifficulty: 500,
        browserTexts: { language: 'de', title: 'Danke', message: 'Your submission was received.' },
        browserMaxFiles: 1,
      },
    ]);
    const again = await cli(['plan', '-f', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });

  it('turns the challenge off only with confirmChallengeOff: true', async () => {
    const file = path.join(dir, 'off.yaml');
    await writeFile(file, FILE.replace('challenge: record_only', 'challenge: off'));
    const refused = await cli(['plan', '-f', file]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('confirmChallengeOff: challenge: off lets any script post');
    await writeFile(
      file,
      FILE.replace('challenge: record_only', 'challenge: off\n          confirmChallengeOff: true'),
    );
    const applied = await cli(['apply', '-f', file, '--yes']);
    expect(applied.code).toBe(0);
    expect((await cli(['plan', '-f', file, '--detailed-exitcode'])).code).toBe(0);
  });
});
