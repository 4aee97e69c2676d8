// One admin server on a fresh test database per test file, and a small GraphQL client over real HTTP.
import { createTestServices, graphqlRequest, type GraphQLResult } from '@intake/shared/test';
import { ensureAdmin } from '../team/members/ensure-admin.js';
import { startAdmin, type AdminServer } from '../server.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export type TestServices = Awaited<ReturnType<typeof createTestServices>>;
export { graphqlRequest, type GraphQLErrorBody, type GraphQLResult } from '@intake/shared/test';
// What a test of any area may set up through another area: the ADMIN_EMAIL owner, an invitation's state.
export { ensureAdmin };
export { findInvitation } from '../team/invitations/find-invitation.js';

export interface TestAdmin {
  services: TestServices;
  server: AdminServer;
  url: string;
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<GraphQLResult<T>>;
  /** Logs in as the bootstrap admin; returns the bearer token. */
  login(email?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestAdmin(env: Record<string, string> = {}): Promise<TestAdmin> {
  const services = await createTestServices({ ADMIN_EMAIL, ADMIN_PASSWORD, ...env });
  await ensureAdmin(services);
  const server = await startAdmin(services);
  const gql = <T>(query: string, variables?: Record<string, unknown>, token?: string) =>
    graphqlRequest<T>(server.url, query, variables, token);
  return {
    services,
    server,
    url: server.url,
    gql,
    async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
      const result = await gql<{ login: { token: string } }>(
        'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
        { email, password },
      );
      if (!result.data?.login) {
        throw new Error(`login failed: ${JSON.stringify(result.errors)}`);
      }
      return result.data.login.token;
    },
    async close() {
      await server.close();
      await services.close();
    },
  };
}

/** The `extensions.code` of each error, for compact assertions. */
export function codes(result: GraphQLResult<unknown>): (string | undefined)[] {
  return (result.errors ?? []).map((error) => error.extensions?.code);
}
