// verifyAuditLog and exportAuditLog over real HTTP: the mutations of a session are a valid chain;
// an entry changed with SQL is reported at its sequence number; the export holds every entry with
// its chain and a checkpoint of its end; an API token gets neither.
import { jest } from '@jest/globals';
import { testDriverName } from '@intake/shared/test';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const VERIFY = '{ verifyAuditLog { valid checkedEntries firstBadSequence problem } }';

let admin: TestAdmin;
let token: string;

async function verify(): Promise<unknown> {
  const result = await admin.gql<{ verifyAuditLog: unknown }>(VERIFY, {}, token);
  expect(result.errors).toBeUndefined();
  return result.data!.verifyAuditLog;
}

beforeAll(async () => {
  admin = await startTestAdmin();
  token = await admin.login();
  for (const name of ['One', 'Two', 'Three']) {
    const created = await admin.gql(
      'mutation($name: String!) { createSite(input: { name: $name }) { id } }',
      { name },
      token,
    );
    expect(created.errors).toBeUndefined();
  }
});

afterAll(async () => {
  await admin?.close();
});

describe(`verifyAuditLog and exportAuditLog on ${testDriverName()}`, () => {
  it('numbers the entries, verifies them, exports them with a signed checkpoint, then finds an edit at its number', async () => {
    const listed = await admin.gql<{ auditLog: { edges: { node: { sequence: number; action: string } }[] } }>(
      '{ auditLog(first: 10) { edges { node { sequence action } } } }',
      {},
      token,
    );
    // login, three createSite: newest first.
    expect(listed.data!.auditLog.edges.map((edge) => [edge.node.sequence, edge.node.action])).toEqual([
      [4, 'createSite'],
      [3, 'createSite'],
      [2, 'createSite'],
      [1, 'login'],
    ]);
    await expect(verify()).resolves.toEqual({ valid: true, checkedEntries: 4, firstBadSequence: null, problem: null });

    const exported = await admin.gql<{ exportAuditLog: { fileName: string; entries: number; content: string } }>(
      'mutation { exportAuditLog { fileName entries content } }',
      {},
      token,
    );
    expect(exported.errors).toBeUndefined();
    const { fileName, entries, content } = exported.data!.exportAuditLog;
    expect(fileName).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.ndjson$/);
    expect(entries).toBe(4);
    const lines = content
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq?: number; signature?: string });
    expect(lines.map((line) => line.type)).toEqual([
      'intake-audit-log',
      'entry',
      'entry',
      'entry',
      'entry',
      'checkpoint',
    ]);
    expect(lines.at(-1)).toMatchObject({ seq: 4, signature: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });

    await admin.services.db.em.fork().execute(`update "audit_log" set "actor_name" = 'someone else' where "seq" = 2`);
    await expect(verify()).resolves.toEqual({
      valid: false,
      checkedEntries: 1,
      firstBadSequence: 2,
      problem: 'entry 2 does not match its hash: it was changed, or moved from elsewhere in the log',
    });
  });

  it('refuses an API token', async () => {
    const created = await admin.gql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(name: "ci") { token } }',
      {},
      token,
    );
    const apiToken = created.data!.createApiToken.token;
    expect(codes(await admin.gql(VERIFY, {}, apiToken))).toEqual(['FORBIDDEN']);
    expect(codes(await admin.gql('mutation { exportAuditLog { entries } }', {}, apiToken))).toEqual(['FORBIDDEN']);
  });
});
