// What an authenticated request costs the database before its own work: one statement that reads
// the caller (with the credential, and whether they hold a passkey), and the team's policy for a
// member without a second factor. Each request used to read the caller twice and count their
// passkeys apart: five statements for `{ sites { id } }` where three do (docs/performance.md).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testDriverName } from '@intake/shared/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SITES = '{ sites { id } }';

describe(`the statements of an authenticated request on ${testDriverName()}`, () => {
  let admin: TestAdmin;

  beforeAll(async () => {
    admin = await startTestAdmin();
  });

  afterAll(async () => {
    await admin?.close();
  });

  /** The tables each statement run by `request` names (sorted), statement by statement. */
  async function tablesRead(request: () => Promise<unknown>): Promise<string[][]> {
    const statements: string[] = [];
    admin.services.db.config.set('onQuery', (sql: string) => {
      statements.push(sql);
      return sql;
    });
    try {
      await request();
    } finally {
      admin.services.db.config.set('onQuery', (sql: string) => sql);
    }
    return statements.map((sql) =>
      [...new Set([...sql.matchAll(/(?:from|join|update|into) "?([a-z_]+)"?/g)].map((match) => match[1]!))].sort(),
    );
  }

  it('reads the caller once with an admin token, then the policy and the sites', async () => {
    const token = await admin.login();
    expect(await tablesRead(() => admin.gql(SITES, {}, token))).toEqual([
      ['admin_users', 'passkeys'],
      ['team_policy'],
      ['sites'],
    ]);
  });

  it('reads the session and its member in one statement with the console cookie', async () => {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
        variables: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      }),
    });
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('intake_session='))!
      .split(';')[0]!;
    const withCookie = () =>
      fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ query: SITES }),
      }).then((answer) => answer.json());
    expect(await withCookie()).toEqual({ data: { sites: [] } });
    expect(await tablesRead(withCookie)).toEqual([
      ['admin_sessions', 'admin_users', 'passkeys'],
      ['team_policy'],
      ['sites'],
    ]);
  });

  it('reads the API token and its member in one statement, and no policy', async () => {
    const session = await admin.login();
    const minted = await admin.gql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(name: "statements") { token } }',
      {},
      session,
    );
    const token = minted.data!.createApiToken.token;
    await admin.gql(SITES, {}, token); // the first use writes lastUsedAt
    expect(await tablesRead(() => admin.gql(SITES, {}, token))).toEqual([
      ['admin_users', 'api_tokens', 'passkeys'],
      ['sites'],
    ]);
  });
});
