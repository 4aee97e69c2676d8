// Receipts across the services (issue #26): a submission posted to the real gateway carries a
// receipt that the admin API returns with `submission(id)` and checks against the published keys
// and the stored rows, "does not match" once the data or a file row is changed with SQL, and
// "signature" for a receipt of a key that is not published. The verifiers of docs/receipts.md
// (Node with jose, Python with cryptography) are taken from the doc and run as written.
import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';
import type { RunningServer } from '@intake/shared/http';
import { createTestServices, graphqlData, makeForm, makeSite, REPO_ROOT, testDriverName } from '@intake/shared/test';
import { pdf } from '@intake/test-files';

jest.setTimeout(60_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let adminToken: string;
let formCode: string;
let siteToken: string;

interface Answer {
  id: string;
  receipt: string;
}
interface ReceiptView {
  receipt: string | null;
  receiptCheck: { valid: boolean; keyId: string | null; problem: string | null } | null;
}

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

async function receiptOf(id: string): Promise<ReceiptView> {
  const { submission } = await gql<{ submission: ReceiptView }>(
    'query($id: ID!) { submission(id: $id) { receipt receiptCheck { valid keyId problem } } }',
    { id },
  );
  return submission;
}

async function submit(options: { json?: unknown; body?: FormData }): Promise<Answer> {
  const response = await send(gateway.url, formCode, { apiKey: services.config.apiKey, token: siteToken, ...options });
  expect(response.status).toBe(201);
  return (await response.json()) as Answer;
}

beforeAll(async () => {
  services = await createTestServices({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  adminToken = login.token;
  const { site, token } = await makeSite(services);
  siteToken = token;
  formCode = (await makeForm(services, site)).code;
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await admin?.close();
  await services?.close();
});

describe(`receipts in the admin API on ${testDriverName()}`, () => {
  it('returns the receipt of the 201 and finds it valid, with the key that signed it', async () => {
    const answer = await submit({ json: { name: 'Ada', amount: 12 } });
    const { kid } = (await services.signingKeys()) as { kid: string };
    expect(await receiptOf(answer.id)).toEqual({
      receipt: answer.receipt,
      receiptCheck: { valid: true, keyId: kid, problem: null },
    });
  });

  it('publishes the same keys on the admin origin as on the gateway', async () => {
    const fromGateway = await (await fetch(`${gateway.url}/.well-known/jwks.json`)).json();
    const fromAdmin = await fetch(`${admin.url}/.well-known/jwks.json`);
    expect(fromAdmin.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(await fromAdmin.json()).toEqual(fromGateway);
  });

  it('does not match once the stored data is changed', async () => {
    const answer = await submit({ json: { name: 'Ada', amount: 12 } });
    await services.db.em
      .getConnection()
      .execute(`update submissions set data = jsonb_set(data, '{amount}', '1200') where id = ?`, [answer.id]);
    expect((await receiptOf(answer.id)).receiptCheck).toEqual({
      valid: false,
      keyId: expect.any(String),
      problem: 'data',
    });
  });

  it('does not match once a stored file row is changed', async () => {
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('scan', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'scan.pdf');
    const answer = await submit({ body });
    expect((await receiptOf(answer.id)).receiptCheck?.valid).toBe(true);
    await services.db.em
      .getConnection()
      .execute(`update stored_files set name = 'other.pdf' where submission_id = ?`, [answer.id]);
    expect((await receiptOf(answer.id)).receiptCheck).toMatchObject({ valid: false, problem: 'files' });
  });

  it('refuses a receipt signed by a key that is not published', async () => {
    const answer = await submit({ json: { name: 'Ada' } });
    // The same claims, signed with Node's crypto under another key that claims the published kid.
    const [header, payload] = answer.receipt.split('.') as [string, string];
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const signature = cryptoSign(
      null,
      Buffer.from(`${header}.${payload}`),
      createPrivateKey(stranger.export({ format: 'pem', type: 'pkcs8' })),
    );
    const forged = `${header}.${payload}.${signature.toString('base64url')}`;
    await services.db.em
      .getConnection()
      .execute('update submissions set receipt = ? where id = ?', [forged, answer.id]);
    expect((await receiptOf(answer.id)).receiptCheck).toEqual({ valid: false, keyId: null, problem: 'signature' });
  });
});

/** The fenced block of `language` in docs/receipts.md whose first line is `firstLine`. */
async function docBlock(language: string, firstLine: string): Promise<string> {
  const doc = await readFile(path.join(REPO_ROOT, 'docs/receipts.md'), 'utf8');
  for (const match of doc.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))) {
    if (match[1]!.startsWith(firstLine)) {
      return match[1]!;
    }
  }
  throw new Error(`docs/receipts.md has no ${language} block starting with ${firstLine}`);
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout, stderr });
    });
  });
}

describe(`the verifiers of docs/receipts.md on ${testDriverName()}`, () => {
  let dir: string;
  let answer: Answer;
  const data = { name: 'Ada', message: 'Tom & Jerry' };
  let tampered: string;

  beforeAll(async () => {
    // Inside the repository, so that the Node verifier's `import 'jose'` resolves as in a project.
    dir = await mkdtemp(path.join(REPO_ROOT, 'node_modules/.cache-receipt-verifiers-'));
    answer = await submit({ json: data });
    const [header, payload, signature] = answer.receipt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, siteId: 'another' })).toString('base64url')}.${signature}`;
    // What the gateway stored (and the person should keep): the sanitised values.
    const { submission } = await gql<{ submission: { data: unknown } }>(
      'query($id: ID!) { submission(id: $id) { data } }',
      {
        id: answer.id,
      },
    );
    await writeFile(path.join(dir, 'data.json'), JSON.stringify(submission.data));
    await writeFile(path.join(dir, 'other.json'), JSON.stringify({ ...data, name: 'Bob' }));
    await writeFile(path.join(dir, 'verify-receipt.mjs'), await docBlock('js', '// verify-receipt.mjs'));
    await writeFile(path.join(dir, 'verify_receipt.py'), await docBlock('python', '# verify_receipt.py'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('Node (jose): verifies the receipt and the data the person kept; refuses a changed receipt or other data', async () => {
    const valid = await run('node', ['verify-receipt.mjs', gateway.url, answer.receipt, 'data.json'], dir);
    expect(valid).toMatchObject({ code: 0 });
    expect(valid.stdout).toContain(answer.id);
    expect(valid.stdout).toContain('data matches');

    const changed = await run('node', ['verify-receipt.mjs', gateway.url, tampered], dir);
    expect(changed.code).not.toBe(0);
    const otherData = await run('node', ['verify-receipt.mjs', gateway.url, answer.receipt, 'other.json'], dir);
    expect(otherData.code).not.toBe(0);
    expect(otherData.stderr).toContain('does not match');
  });

  it('Python (cryptography): verifies the receipt; refuses a changed one', async () => {
    const valid = await run('python3', ['verify_receipt.py', gateway.url, answer.receipt], dir);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(valid.stdout)).toMatchObject({ submissionId: answer.id, formCode });

    const changed = await run('python3', ['verify_receipt.py', gateway.url, tampered], dir);
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('does not verify');
  });
});
