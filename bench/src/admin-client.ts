// What every bench part that talks to a real admin API needs: the environment of a throwaway admin
// (fresh secrets, the bench administrator, silent logs) and a GraphQL client signed in as it.
import { generateSecret } from '@intake/shared/secrets';

/** A GraphQL request's `data`, shaped by the caller; an answer with errors throws. */
export type Gql = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

export interface BenchAdmin {
  /** The admin API's configuration as environment variables (listening on a free port). */
  env: Record<string, string>;
  email: string;
  password: string;
}

// One administrator for every bench process on a database: ADMIN_EMAIL makes an account only while
// the team is empty, so the first process makes it and the later ones (a second admin process, a
// rerun on a database seeded before) sign in as it. The bench's own throwaway databases only.
const BENCH_ADMIN_EMAIL = 'bench-admin@example.com';
const BENCH_ADMIN_PASSWORD = 'bench admin of a throwaway database';

export function benchAdmin(databaseUrl: string, dataDir: string): BenchAdmin {
  const email = BENCH_ADMIN_EMAIL;
  const password = BENCH_ADMIN_PASSWORD;
  return {
    email,
    password,
    env: {
      NODE_ENV: 'test',
      ADMIN_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'silent',
    },
  };
}

async function post<T>(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const response = await fetch(new URL('/graphql', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
  if (body.errors !== undefined || body.data === undefined) {
    throw new Error(`admin API answered ${response.status}: ${JSON.stringify(body.errors)}`);
  }
  return body.data as T;
}

/** Logs in to the admin API at `url` as `admin`; the client sends its token with every request. */
export async function signedInGql(url: string, admin: Pick<BenchAdmin, 'email' | 'password'>): Promise<Gql> {
  const login = await post<{ login: { token: string } }>(
    url,
    'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
    { e: admin.email, p: admin.password },
  );
  const token = login.login.token;
  return <T>(query: string, variables: Record<string, unknown>) => post<T>(url, query, variables, token);
}
