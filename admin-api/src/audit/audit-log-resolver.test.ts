// The auditLog query over real HTTP: newest first, keyset pages that neither skip nor repeat,
// each filter alone and combined, clear BAD_USER_INPUT for bad arguments, and administrators only.
import { jest } from '@jest/globals';
import { recordAuditEntry, type AuditEntryInput } from '@intake/shared/audit';
import { testDriverName } from '@intake/shared/test';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const ENTRY_FIELDS =
  'id at actor { kind id name } action objectType objectId outcome errorCode address requestId details';
const QUERY = `query($first: Int, $after: String, $filter: AuditLogFilterInput) {
  auditLog(first: $first, after: $after, filter: $filter) {
    edges { cursor node { ${ENTRY_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const BASE = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const ALICE = { kind: 'admin' as const, id: '11111111-1111-4111-8111-111111111111', name: 'alice@example.com' };
const ROBOT = { kind: 'api_token' as const, id: '22222222-2222-4222-8222-222222222222', name: 'deploy_bot%' };

let admin: TestAdmin;
let token: string;

interface Node {
  requestId: string;
  at: string;
  actor: { kind: string; id: string | null; name: string };
  outcome: string;
  details: Record<string, unknown> | null;
}

async function page(variables: Record<string, unknown>, as = token) {
  const result = await admin.gql<{
    auditLog: { edges: { cursor: string; node: Node }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  }>(QUERY, variables, as);
  return result;
}

/** The request ids of every matching entry, following the pages. */
async function all(filter: Record<string, unknown>, first = 3): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (;;) {
    const result = await page({ first, after, filter });
    expect(result.errors).toBeUndefined();
    const { edges, pageInfo } = result.data!.auditLog;
    seen.push(...edges.map((edge) => edge.node.requestId));
    if (!pageInfo.hasNextPage) {
      return seen;
    }
    after = pageInfo.endCursor;
  }
}

beforeAll(async () => {
  admin = await startTestAdmin();
  // Seeded straight through the one writer, at known times (the login below adds a newer entry).
  const seeds: AuditEntryInput[] = [];
  for (let hour = 0; hour < 10; hour++) {
    seeds.push({
      actor: hour % 2 === 0 ? ALICE : ROBOT,
      action: hour < 5 ? 'createSite' : 'deleteSite',
      objectType: 'Site',
      objectId: `site-${hour % 3}`,
      outcome: hour === 7 ? 'failure' : 'success',
      errorCode: hour === 7 ? 'NOT_FOUND' : null,
      address: '198.51.100.4',
      requestId: `seed-${hour}`,
      details: { hour },
      at: new Date(BASE + hour * HOUR),
    });
  }
  // Two at the very same instant: the id breaks the tie, and paging must still not repeat or skip.
  seeds.push({ ...seeds[9]!, requestId: 'seed-9-twin', details: null });
  for (const seed of seeds) {
    await recordAuditEntry(admin.services.db.em.fork(), admin.services.auditChain, seed);
  }
  token = await admin.login();
}, 60_000);

afterAll(async () => {
  await admin?.close();
});

describe(`the auditLog query on ${testDriverName()}`, () => {
  it('answers every field, newest first, and pages without skipping or repeating', async () => {
    const first = await page({ first: 1, filter: { objectType: 'Site' } });
    expect(first.data!.auditLog.edges[0]!.node).toMatchObject({
      at: new Date(BASE + 9 * HOUR).toISOString(),
      actor: { kind: 'API_TOKEN', id: ROBOT.id, name: ROBOT.name },
      action: 'deleteSite',
      objectType: 'Site',
      objectId: 'site-0',
      outcome: 'SUCCESS',
      errorCode: null,
      address: '198.51.100.4',
    });
    const seen = await all({ objectType: 'Site' });
    expect(seen).toHaveLength(11);
    expect(new Set(seen).size).toBe(11);
    expect(seen.slice(-3)).toEqual(['seed-2', 'seed-1', 'seed-0']);
    expect(seen.slice(0, 2).sort()).toEqual(['seed-9', 'seed-9-twin']);
  });

  it('filters by actor (id, or part of the name with wildcards taken literally), action, object, outcome and time', async () => {
    expect(await all({ actor: ALICE.id })).toEqual(['seed-8', 'seed-6', 'seed-4', 'seed-2', 'seed-0']);
    const robot = ['seed-9', 'seed-9-twin', 'seed-7', 'seed-5', 'seed-3', 'seed-1'];
    expect((await all({ actor: 'BOT%' })).sort()).toEqual([...robot].sort());
    expect(await all({ actor: 'deploy%bot' })).toEqual([]);
    expect(await all({ actor: 'alice_example' })).toEqual([]);
    expect(await all({ action: 'createSite' })).toEqual(['seed-4', 'seed-3', 'seed-2', 'seed-1', 'seed-0']);
    expect(await all({ objectId: 'site-1' })).toEqual(['seed-7', 'seed-4', 'seed-1']);
    expect(await all({ outcome: 'FAILURE' })).toEqual(['seed-7']);
    expect(
      await all({ from: new Date(BASE + 2 * HOUR).toISOString(), to: new Date(BASE + 5 * HOUR).toISOString() }),
    ).toEqual(['seed-4', 'seed-3', 'seed-2']);
    expect(await all({ actor: ALICE.name, action: 'deleteSite', objectId: 'site-0' })).toEqual(['seed-6']);
  });

  it('refuses bad arguments with BAD_USER_INPUT', async () => {
    for (const variables of [
      { after: 'not a cursor' },
      { first: 101 },
      { filter: { from: 'yesterday' } },
      { filter: { actor: '   ' } },
      { filter: { action: 'x'.repeat(400) } },
    ]) {
      expect(codes(await page(variables))).toEqual(['BAD_USER_INPUT']);
    }
  });

  it('is for administrators: an API token is refused', async () => {
    const minted = await admin.gql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(name: "reader") { token } }',
      {},
      token,
    );
    const result = await page({ first: 1 }, minted.data!.createApiToken.token);
    expect(codes(result)).toEqual(['FORBIDDEN']);
    expect(result.data).toBeNull();
  });
});
