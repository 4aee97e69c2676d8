// The audit log's edges. An entry the database refuses as described is written without the actor's
// name. When no entry can be written after a mutation committed, the client still gets the
// mutation's real answer (not an error that would invite a retry) and the failure is logged at
// error level with the request id and the action, so an operator can alert on it.
// Sign-ins refused by the attempt limit leave no entry: guessing on past the limit must not grow
// the table at request rate.
import { jest } from '@jest/globals';
import { NAME_NOT_RECORDED } from '@intake/shared/audit';
import { AuditEntrySchema, SiteSchema } from '@intake/shared/entities';
import { createLogger } from '@intake/shared/logger';
import { LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS } from '../access/login-policy.js';
import { createTestServices, testDriverName } from '@intake/shared/test';
import { ensureAdmin, ADMIN_EMAIL, ADMIN_PASSWORD, graphqlRequest } from '../test/harness.js';
import { startAdmin, type AdminServer } from '../server.js';

jest.setTimeout(60_000);

const logged = {
  text: '',
  write(line: string) {
    logged.text += line;
  },
};

let services: Awaited<ReturnType<typeof createTestServices>>;
let admin: AdminServer;
let token: string;

beforeAll(async () => {
  services = await createTestServices({ ADMIN_EMAIL, ADMIN_PASSWORD });
  await ensureAdmin(services);
  admin = await startAdmin({ ...services, logger: createLogger('info', {}, logged) });
  const login = await graphqlRequest<{ login: { token: string } }>(
    admin.url,
    'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
    { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  );
  token = login.data!.login.token;
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await services?.close();
});

async function renameAuditTable(from: string, to: string): Promise<void> {
  await services.db.em.fork().execute(`alter table "${from}" rename to "${to}"`);
}

describe(`an audit entry that cannot be written, on ${testDriverName()}`, () => {
  it('leaves the answer as the mutation made it and logs the failure with the request id', async () => {
    await renameAuditTable('audit_log', 'audit_log_away');
    let created;
    try {
      created = await graphqlRequest<{ createSite: { id: string } }>(
        admin.url,
        'mutation { createSite(input: { name: "Unaudited" }) { id } }',
        {},
        token,
      );
    } finally {
      await renameAuditTable('audit_log_away', 'audit_log');
    }
    expect(created.errors).toBeUndefined();
    const siteId = created.data!.createSite.id;
    expect(await services.db.em.fork().count(SiteSchema, { id: siteId })).toBe(1);

    const requestId = created.headers.get('x-request-id');
    const failures = logged.text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'audit entry not written');
    expect(failures).toEqual([expect.objectContaining({ level: 50, requestId, action: 'createSite' })]);
    expect(logged.text).not.toContain(ADMIN_PASSWORD);

    // Once the table is back, the next mutation is recorded again.
    const deleted = await graphqlRequest(
      admin.url,
      'mutation($id: ID!) { deleteSite(id: $id) }',
      { id: siteId },
      token,
    );
    expect(deleted.errors).toBeUndefined();
    const entries = await services.db.em.fork().find(AuditEntrySchema, { objectId: siteId });
    expect(entries.map((entry) => entry.action)).toEqual(['deleteSite']);
  });

  it('writes an entry the database refuses as described without the actor name, and says so', async () => {
    const em = () => services.db.em.fork();
    await em().execute(
      `alter table "audit_log" add constraint "refuse_name" check ("actor_name" <> '${ADMIN_EMAIL}') not valid`,
    );
    let created;
    try {
      created = await graphqlRequest<{ createSite: { id: string } }>(
        admin.url,
        'mutation { createSite(input: { name: "Nameless" }) { id } }',
        {},
        token,
      );
    } finally {
      await em().execute(`alter table "audit_log" drop constraint "refuse_name"`);
    }
    expect(created.errors).toBeUndefined();
    const entries = await em().find(AuditEntrySchema, { objectId: created.data!.createSite.id });
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'createSite',
        actorKind: 'admin',
        actorName: NAME_NOT_RECORDED,
        details: null,
      }),
    ]);
    const lines = logged.text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'audit entry written without the actor name');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, action: 'createSite', requestId: created.headers.get('x-request-id') }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(ADMIN_EMAIL);
  });

  it('records failed sign-ins up to the attempt limit, and not the refusals past it', async () => {
    const email = 'target@example.com';
    const before = await services.db.em.fork().count(AuditEntrySchema, { action: 'login' });
    const answers: (string | undefined)[] = [];
    for (let attempt = 0; attempt < LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS + 5; attempt++) {
      const result = await graphqlRequest(
        admin.url,
        'mutation($email: String!) { login(email: $email, password: "guess") { token } }',
        { email },
      );
      answers.push(result.errors?.[0]?.extensions?.code);
    }
    expect(answers.filter((code) => code === 'RATE_LIMITED')).toHaveLength(5);
    const entries = await services.db.em.fork().find(AuditEntrySchema, { action: 'login', outcome: 'failure' });
    expect(entries).toHaveLength(LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS);
    expect(entries.every((entry) => entry.errorCode === 'UNAUTHENTICATED')).toBe(true);
    expect(await services.db.em.fork().count(AuditEntrySchema, { action: 'login' })).toBe(
      before + LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS,
    );
  });
});
