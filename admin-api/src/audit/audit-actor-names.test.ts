// No action without its audit entry, over real HTTP: an API token whose accepted name ends in emoji
// (a name cut inside a surrogate pair once made its entries unwritable) leaves an entry, with its
// whole name, for each change it makes; the newest signed checkpoint is served for a witness, and
// verifyAuditLog takes a witnessed one.
import { jest } from '@jest/globals';
import { checkpointChainHead } from '@intake/shared/audit';
import { AuditEntrySchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { startTestAdmin, ADMIN_EMAIL, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

let admin: TestAdmin;
let login: string;

beforeAll(async () => {
  admin = await startTestAdmin();
  login = await admin.login();
});

afterAll(async () => {
  await admin?.close();
});

describe(`audit entries of an API token with a long name, on ${testDriverName()}`, () => {
  it('records each change the token makes, under its whole name', async () => {
    const name = `a${'😀'.repeat(199)}`;
    const created = await admin.gql<{ createApiToken: { token: string } }>(
      'mutation($name: String!) { createApiToken(name: $name) { token } }',
      { name },
      login,
    );
    expect(created.errors).toBeUndefined();
    const token = created.data!.createApiToken.token;

    const site = await admin.gql<{ createSite: { id: string } }>(
      'mutation { createSite(input: { name: "Emoji" }) { id } }',
      {},
      token,
    );
    expect(site.errors).toBeUndefined();
    const siteId = site.data!.createSite.id;
    const changes = [
      ['rotateSiteToken', 'mutation($id: ID!) { rotateSiteToken(siteId: $id) { siteId } }'],
      ['eraseSubmissions', 'mutation($id: ID!) { eraseSubmissions(ids: [$id]) { notFoundIds } }'],
      ['deleteSite', 'mutation($id: ID!) { deleteSite(id: $id) }'],
    ] as const;
    for (const [, query] of changes) {
      const result = await admin.gql(query, { id: siteId }, token);
      expect(result.errors).toBeUndefined();
    }

    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { actorKind: 'api_token' }, { orderBy: { seq: 'asc' } });
    expect(entries.map((entry) => entry.action)).toEqual(['createSite', ...changes.map(([action]) => action)]);
    for (const entry of entries) {
      expect(entry.actorName).toBe(`${name} (${ADMIN_EMAIL})`);
    }
  });

  it('serves the newest signed checkpoint for a witness, and verifyAuditLog takes it back', async () => {
    const none = await fetch(`${admin.url}/.well-known/audit-checkpoint`);
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ checkpoint: null });

    const made = await checkpointChainHead(admin.services.db.em.fork(), admin.services.auditChain);
    const answer = await fetch(`${admin.url}/.well-known/audit-checkpoint`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const served = (await answer.json()) as { checkpoint: string; seq: number; count: number };
    expect(served).toMatchObject({ checkpoint: made!.signature, seq: made!.seq, count: 1 });

    const verify = (witness: string) =>
      admin.gql<{ verifyAuditLog: { valid: boolean; problem: string | null } }>(
        'query($witness: String) { verifyAuditLog(witness: $witness) { valid problem } }',
        { witness },
        login,
      );
    expect((await verify(served.checkpoint)).data!.verifyAuditLog).toEqual({ valid: true, problem: null });
    // The witnessed entries deleted, the head moved back as if they never were.
    const sql = (query: string, params: unknown[] = []) => admin.services.db.em.fork().execute(query, params);
    const keep = served.seq - 2;
    const [kept] = (await sql(`select "hash", "digest" from "audit_log" where "seq" = ?`, [keep])) as {
      hash: string;
      digest: string;
    }[];
    await sql(`delete from "audit_log" where "seq" > ?`, [keep]);
    await sql(`delete from "audit_checkpoints"`);
    await sql(`update "audit_chain_head" set "seq" = ?, "chained_seq" = ?, "hash" = ?, "digest" = ?`, [
      keep,
      keep,
      kept!.hash,
      kept!.digest,
    ]);
    expect((await verify(served.checkpoint)).data!.verifyAuditLog).toEqual({
      valid: false,
      problem: `the log ends at entry ${keep}, before the witnessed checkpoint at entry ${served.seq}`,
    });
  });
});
