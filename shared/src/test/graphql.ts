// A small GraphQL client over real HTTP, for tests that drive the admin API as a client would.

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface GraphQLResult<T> {
  status: number;
  headers: Headers;
  data: T | null | undefined;
  errors: GraphQLErrorBody[] | undefined;
}

/** POSTs one operation to `<url>/graphql`, with the admin token when given; returns the whole answer. */
export async function graphqlRequest<T>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
): Promise<GraphQLResult<T>> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T | null; errors?: GraphQLErrorBody[] };
  return { status: response.status, headers: response.headers, data: body.data, errors: body.errors };
}

/** The data of an operation that must succeed; throws with the error messages otherwise. */
export async function graphqlData<T = any>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const result = await graphqlRequest<T>(url, query, variables, token);
  if (result.errors || result.data == null) {
    throw new Error(`GraphQL failed: ${(result.errors ?? []).map((error) => error.message).join('; ')}`);
  }
  return result.data;
}
