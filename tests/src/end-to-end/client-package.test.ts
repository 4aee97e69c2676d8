// The packed @intake/client as a site backend gets it (docs/client.md): `npm pack` gives a tarball of
// the built ESM and its types, with the contract bundled in and no dependency; installed into a scratch
// prefix with nothing else, it imports and submits to a listening gateway, and verifies a webhook.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROBLEM_CODES } from '@intake/contract';
import { jest } from '@jest/globals';
import { SubmissionSchema } from '@intake/shared/entities';
import { makeForm, makeSite, REPO_ROOT } from '@intake/shared/test';
import { startTestGateway } from '@intake/gateway/test';

jest.setTimeout(120_000);

const run = promisify(execFile);
const CLIENT_DIR = path.join(REPO_ROOT, 'client');

let harness: Awaited<ReturnType<typeof startTestGateway>>;
let scratch: string;

beforeAll(async () => {
  harness = await startTestGateway();
  scratch = await mkdtemp(path.join(tmpdir(), 'intake-client-pack-'));
});

afterAll(async () => {
  await harness?.close();
  await rm(scratch, { recursive: true, force: true });
});

it('packs the built ESM and types only, installs alone in a scratch prefix, and submits from there', async () => {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: CLIENT_DIR });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  const files = packed!.files.map((file) => file.path).sort();
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/index.d.ts');
  expect(files).toContain('package.json');
  expect(files).toContain('README.md');
  expect(files.filter((file) => file.startsWith('src/') || /\.test\./.test(file))).toEqual([]);
  // The contract (the problem codes, the stored-file shape), bundled in with its types: its `prepack`
  // builds the client and copies the compiled contract into dist/contract.
  expect(files).toEqual(
    expect.arrayContaining(['dist/contract/index.js', 'dist/contract/index.d.ts', 'dist/contract/problems.js']),
  );

  const prefix = path.join(scratch, 'app');
  await run(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', path.join(scratch, packed!.filename)],
    { cwd: scratch },
  );
  // Nothing but the client itself was installed: it has no dependency, and the contract is inside it.
  expect(await readdir(path.join(prefix, 'node_modules'))).toEqual(expect.arrayContaining(['@intake']));
  expect((await readdir(path.join(prefix, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual([
    '@intake',
  ]);
  expect(await readdir(path.join(prefix, 'node_modules/@intake'))).toEqual(['client']);
  const manifest = JSON.parse(await readFile(path.join(prefix, 'node_modules/@intake/client/package.json'), 'utf8'));
  expect(manifest.dependencies ?? {}).toEqual({});

  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site);
  const script = path.join(prefix, 'submit.mjs');
  await writeFile(
    script,
    [
      "import { IntakeClient, IntakeProblem, PROBLEM_CODES, verifyWebhook } from '@intake/client';",
      'const client = new IntakeClient({ url: process.env.INTAKE_GATEWAY_URL, apiKey: process.env.INTAKE_API_KEY, siteToken: process.env.INTAKE_SITE_TOKEN });',
      "const result = await client.submit(process.env.FORM_CODE, { name: 'Ada' }, { files: [{ field: 'note', name: 'note.txt', data: new TextEncoder().encode('hello') }] });",
      "const refused = await client.submit('no-such-form', {}).catch((error) => error);",
      "const signed = verifyWebhook('whsec_' + Buffer.from('k').toString('base64'), { 'webhook-id': 'a', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' }, '{}');",
      'console.log(JSON.stringify({ id: result.id, files: result.files.length, refused: refused instanceof IntakeProblem ? refused.code : null, known: refused.known, codes: PROBLEM_CODES, signed }));',
    ].join('\n'),
  );
  const output = await run(process.execPath, [script], {
    cwd: prefix,
    env: {
      PATH: process.env.PATH,
      INTAKE_GATEWAY_URL: harness.gateway.url,
      INTAKE_API_KEY: harness.services.config.apiKey,
      INTAKE_SITE_TOKEN: token,
      FORM_CODE: form.code,
    },
  });
  // The types resolve from the installed package and hold a typed use together (TypeScript's own
  // DOM library stands for the fetch types a Node project gets from @types/node).
  await writeFile(
    path.join(prefix, 'typed.ts'),
    [
      "import { IntakeClient, IntakeProblem, type ProblemCode, type StoredFile, type SubmissionResult } from '@intake/client';",
      "const client = new IntakeClient({ url: 'http://localhost', apiKey: 'k', siteToken: 't' });",
      "export const pending: Promise<SubmissionResult> = client.submit('code', { a: 1 }, { idempotencyKey: 'k' });",
      'export function codeOf(error: unknown): ProblemCode | undefined { return error instanceof IntakeProblem ? error.code : undefined; }',
      '// @ts-expect-error: not a documented code',
      "export const wrong: ProblemCode = 'no_such_code';",
      "export const file: StoredFile = { id: 'f', field: 'cv', name: 'cv.pdf', mimeType: 'application/pdf', size: 1, sha256: 'ab' };",
      '// @ts-expect-error: a stored file is described without its storage key',
      "export const leaked: StoredFile = { ...file, storageKey: 'k' };",
    ].join('\n'),
  );
  await run(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom',
      'typed.ts',
    ],
    { cwd: prefix },
  );

  const answer = JSON.parse(output.stdout) as { id: string; files: number; refused: string; signed: boolean };
  expect(answer).toMatchObject({ files: 1, refused: 'form_forbidden', known: true, signed: false });
  // The installed client's codes are the catalogue's, read from its bundled copy of the contract.
  expect(answer).toMatchObject({ codes: [...PROBLEM_CODES] });
  const row = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, { id: answer.id });
  expect(row.data).toEqual({ name: 'Ada' });
});
