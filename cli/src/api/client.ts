// The admin API over GraphQL: one POST /graphql per operation with the API token as a bearer token.
// Errors carry the API's own messages and codes, so the command line prints them as they are.

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; field?: string; [key: string]: unknown };
}

/** The API refused an operation (GraphQL errors), or could not be reached. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly errors: GraphQLErrorBody[],
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Connection {
  /** The admin API's origin, e.g. http://127.0.0.1:4000 (a trailing /graphql is accepted). */
  url: string;
  token: string;
}

export type Variables = Record<string, unknown>;

/** The endpoint for an admin URL given with or without its /graphql path. */
export function graphqlEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/graphql') ? trimmed : `${trimmed}/graphql`;
}

/** One line per error: its message, then `[CODE field]`. */
export function describeErrors(errors: GraphQLErrorBody[]): string {
  return errors
    .map((error) => {
      const code = error.extensions?.code;
      const field = error.extensions?.field;
      const tags = [code, field ? `field ${field}` : undefined].filter(Boolean).join(', ');
      return tags ? `${error.message} [${tags}]` : error.message;
    })
    .join('\n');
}

export class AdminClient {
  constructor(readonly connection: Connection) {}

  async request<T>(query: string, variables: Variables = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(graphqlEndpoint(this.connection.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${this.connection.token}`,
        },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new ApiError(`Cannot reach ${this.connection.url}${cause}`, []);
    }
    const text = await response.text();
    let body: { data?: T | null; errors?: GraphQLErrorBody[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new ApiError(`${this.connection.url} answered HTTP ${response.status}, not GraphQL`, [], response.status);
    }
    if (body.errors?.length) {
      throw new ApiError(describeErrors(body.errors), body.errors, response.status);
    }
    if (body.data == null) {
      throw new ApiError(`${this.connection.url} answered HTTP ${response.status} without data`, [], response.status);
    }
    return body.data;
  }
}
