// The examples of docs/client.md, taken from the doc and run as written with node (issue #25): the
// submitting example, with the refusal example after it as the doc continues it, stores a JSON
// submission and one with its PDF on a listening gateway and prints the refusal's code and fields; the
// webhook receiver answers 204 to a request signed with the documented Standard Webhooks scheme and
// 401 to a changed body or a wrong secret. Their settings come from the environment, as the doc says.
import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { jest } from '@jest/globals';
import { generateWebhookSecret, webhookSigningKey } from '@intake/shared/delivery';
import { StoredFileSchema, SubmissionSchema, type Form } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import {
  killProcesses,
  makeForm,
  makeSite,
  REPO_ROOT,
  runScript,
  testDriverName,
  type StartedProcess,
} from '@intake/shared/test';
import { startTestGateway } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

jest.setTimeout(60_000);

/** The ```js blocks of docs/client.md, in order, each named by its first line. */
async function docBlock(firstLine: string): Promise<string> {
  const doc = await readFile(path.join(REPO_ROOT, 'docs/client.md'), 'utf8');
  for (const match of doc.matchAll(/```js\n([\s\S]*?)```/g)) {
    if (match[1]!.startsWith(firstLine)) {
      return match[1]!;
    }
  }
  throw new Error(`docs/client.md has no js block starting with ${firstLine}`);
}

/** Waits for `pattern` in the process's output; fails with the output when it exits first. */
async function waitForOutput(started: StartedProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = pattern.exec(started.output());
    if (found) {
      return found;
    }
    if (started.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`no ${pattern} in the example's output:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let harness: Awaited<ReturnType<typeof startTestGateway>>;
let scratch: string | undefined;
let dir: string;
let form: Form;
let env: Record<string, string>;
const processes: StartedProcess[] = [];

beforeAll(async () => {
  harness = await startTestGateway();
  // The examples import '@intake/client': its built ESM, as `npm run build` makes it (quick when built).
  await promisify(execFile)(process.execPath, [
    path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
    '-b',
    path.join(REPO_ROOT, 'client'),
  ]);
  // Inside the repository, so that `import '@intake/client'` resolves as in a backend that installed it.
  // A backend's project as docs/client.md makes it: `npm init -y` (CommonJS), then ESM by its step.
  scratch = await mkdtemp(path.join(REPO_ROOT, 'node_modules/.cache-client-docs-'));
  dir = path.join(scratch, 'my-backend');
  await mkdir(dir);
  await promisify(execFile)('npm', ['init', '-y'], { cwd: dir });
  await promisify(execFile)('npm', ['pkg', 'set', 'type=module'], { cwd: dir });
  const { site, token } = await makeSite(harness.services);
  // The fields the examples send, declared, so that the refusal example's e-mail address is refused.
  form = await makeForm(harness.services, site, {
    fieldsSchema: toJsonSchema([
      { name: 'name', type: 'text', required: false, maxLength: null, choices: null },
      { name: 'email', type: 'email', required: false, maxLength: null, choices: null },
      { name: 'tags', type: 'list', required: false, maxLength: null, choices: null },
    ]),
  });
  env = {
    INTAKE_GATEWAY_URL: harness.gateway.url,
    INTAKE_API_KEY: harness.services.config.apiKey,
    INTAKE_SITE_TOKEN: token,
    INTAKE_FORM_CODE: form.code,
  };
});

afterAll(async () => {
  await killProcesses(processes);
  await harness?.close();
  if (scratch) {
    await rm(scratch, { recursive: true, force: true });
  }
});

describe(`the examples of docs/client.md on ${testDriverName()}`, () => {
  it('submits JSON and a file, then meets the refusal as an IntakeProblem', async () => {
    const script = path.join(dir, 'index.js');
    await writeFile(
      script,
      (await docBlock("import { readFile, writeFile } from 'node:fs/promises';")) + (await docBlock('try {')),
    );
    await writeFile(path.join(dir, 'report.pdf'), pdf());
    const started = runScript(path.relative(REPO_ROOT, script), dir, env);
    processes.push(started);
    const code = await started.exited;
    if (code !== 0) {
      throw new Error(`the examples exited with ${code}:\n${started.output()}`);
    }

    const stored = await harness.services.db.em
      .fork()
      .find(SubmissionSchema, { form: form.id }, { orderBy: { createdAt: 'asc' } });
    expect(stored.map((submission) => submission.data)).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Ada Lovelace', tags: ['urgent', 'billing'] },
    ]);
    expect(started.output()).toContain(`stored ${stored[0]!.id}`);
    // The receipt the example kept: a compact JWS whose payload names the stored submission.
    const receipt = await readFile(path.join(dir, `receipt-${stored[0]!.id}.jws`), 'utf8');
    const payload = JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString('utf8')) as object;
    expect(JSON.stringify(payload)).toContain(stored[0]!.id);
    const files = await harness.services.db.em.fork().find(StoredFileSchema, { submission: stored[1]!.id });
    expect(files.map((file) => ({ name: file.name, size: Number(file.size) }))).toEqual([
      { name: 'report.pdf', size: pdf().length },
    ]);
    expect(started.output()).toContain('refused: fields_invalid');
    expect(started.output()).toContain("path: 'email', reason: 'must be an e-mail address'");
  });

  it('verifies a signed webhook with the receiver as written; refuses a changed body and another secret', async () => {
    const secret = generateWebhookSecret();
    const script = path.join(dir, 'receive.mjs');
    await writeFile(script, await docBlock("import { createServer } from 'node:http';"));
    const started = runScript(path.relative(REPO_ROOT, script), dir, { INTAKE_WEBHOOK_SECRET: secret, PORT: '0' });
    processes.push(started);
    const [, port] = await waitForOutput(started, /listening on (\d+)/);

    // Signed as the delivery worker signs (worker/src/delivery/sign.ts): the documented scheme.
    const deliver = (body: string, signingSecret: string, sent = body) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', webhookSigningKey(signingSecret))
        .update(`msg_1.${timestamp}.${body}`)
        .digest('base64');
      return fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'msg_1',
          'webhook-timestamp': timestamp,
          'webhook-signature': `v1,${signature}`,
        },
        body: sent,
      });
    };
    const body = JSON.stringify({ type: 'submission.created', data: { formCode: form.code } });
    expect((await deliver(body, secret)).status).toBe(204);
    expect((await deliver(body, secret, body.replace('created', 'deleted'))).status).toBe(401);
    expect((await deliver(body, generateWebhookSecret())).status).toBe(401);
    expect(started.child.exitCode).toBeNull();
  });
});
