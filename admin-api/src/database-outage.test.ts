// A real PostgreSQL server refusing service while the admin API is up: a database not accepting
// connections (55000), over its connection limit (53300), and a backend terminated by an
// administrator mid-query (57P01). Each is a GraphQL error with `extensions.code`
// SERVICE_UNAVAILABLE, never INTERNAL_SERVER_ERROR, and the API answers again once it is back.
import { createOutageDatabase, graphqlRequest, type OutageDatabase } from '@intake/shared/test';
import { ensureAdmin } from './auth/ensure-admin.js';
import { startAdmin, type AdminServer } from './server.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const describeOnPostgres = serverUrl ? describe : describe.skip;
const ADMIN = { email: 'admin@example.com', password: 'a long enough password' };
const SITES = 'query { sites { id } }';
const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';

let outage: OutageDatabase;
let admin: AdminServer;
let token: string;

beforeAll(async () => {
  if (!serverUrl) {
    return;
  }
  outage = await createOutageDatabase(serverUrl, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await ensureAdmin(outage.services);
  admin = await startAdmin(outage.services);
  const login = await graphqlRequest<{ login: { token: string } }>(admin.url, LOGIN, {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  token = login.data!.login.token;
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await outage?.close();
}, 30_000);

async function expectUnavailable(query: string, variables?: Record<string, unknown>, bearer?: string): Promise<void> {
  const result = await graphqlRequest(admin.url, query, variables, bearer);
  expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
  expect(JSON.stringify(result.errors)).not.toMatch(/intake_o_|postgres|accepting|terminat/i);
}

async function expectServing(): Promise<void> {
  const result = await graphqlRequest(admin.url, SITES, undefined, token);
  expect(result.errors).toBeUndefined();
}

describeOnPostgres('the admin API while PostgreSQL refuses service', () => {
  it('SERVICE_UNAVAILABLE when the database is not accepting connections (55000)', async () => {
    await expectServing();
    await outage.refuseConnections();
    try {
      await outage.terminateConnections();
      await expectUnavailable(SITES, undefined, token);
      await expectUnavailable(LOGIN, { e: ADMIN.email, p: ADMIN.password });
    } finally {
      await outage.restore();
    }
    await expectServing();
  });

  it('SERVICE_UNAVAILABLE when the database is over its connection limit (53300)', async () => {
    await outage.limitConnections();
    try {
      await outage.terminateConnections();
      await expectUnavailable(SITES, undefined, token);
    } finally {
      await outage.restore();
    }
    await expectServing();
  });

  it('SERVICE_UNAVAILABLE when an administrator terminates the backend mid-query (57P01)', async () => {
    await outage.terminateWhileWaitingOn('sites', () => expectUnavailable(SITES, undefined, token));
    await expectServing();
  });
});
