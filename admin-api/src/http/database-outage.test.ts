// A real PostgreSQL server refusing service while the admin API is up: a database not accepting
// connections (55000), over its connection limit (53300), and a backend terminated by an
// administrator mid-query (57P01). Each is a GraphQL error with `extensions.code`
// SERVICE_UNAVAILABLE, never INTERNAL_SERVER_ERROR, and the API answers again once it is back; an
// export link is a 503 with Retry-After meanwhile.
import {
  createOutageDatabase,
  describeOnPostgres,
  graphqlRequest,
  makeForm,
  makeSite,
  type OutageDatabase,
} from '@intake/shared/test';
import { ensureAdmin } from '../test/harness.js';
import { startAdmin, type AdminServer } from '../server.js';

const serverUrl = process.env.TEST_DATABASE_URL;
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

  it('an export link answers 503 with Retry-After while the database is away, and the export after', async () => {
    const { site } = await makeSite(outage.services);
    const form = await makeForm(outage.services, site);
    const created = await graphqlRequest<{ createSubmissionExport: { url: string } }>(
      admin.url,
      'mutation($formId: ID!) { createSubmissionExport(formId: $formId, format: CSV) { url } }',
      { formId: form.id },
      token,
    );
    const url = created.data!.createSubmissionExport.url;
    await outage.refuseConnections();
    try {
      await outage.terminateConnections();
      const refused = await fetch(url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.text()).toBe('Service unavailable');
    } finally {
      await outage.restore();
    }
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('id,createdAt,status,assignee,sanitizedFields,files,fileLinks\r\n');
  });

  it('SERVICE_UNAVAILABLE when an administrator terminates the backend mid-query (57P01)', async () => {
    await outage.terminateWhileWaitingOn('sites', () => expectUnavailable(SITES, undefined, token));
    await expectServing();
  });
});
