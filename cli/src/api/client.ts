// The admin API over GraphQL: one POST /graphql per operation with the API token as a bearer token.
// Errors carry the API's own messages and codes, so the command line prints them as they are. A
// redirect is never followed: fetch would resend the request (and, to the same origin, the token)
// to wherever Location points, and the admin API never redirects /graphql.
// Documents are the typed ones GraphQL Code Generator makes from the `.graphql` files under src/
// (cli/codegen.ts): the text to send, carrying the types of its variables and of its answer.
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';

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
  /** Where the URL came from (`INTAKE_ADMIN_URL`, `--url`, a profile): named when it is not the admin API. */
  source?: string;
}

/** A generated document (src/gql/graphql.ts): its text, typed with its answer and its variables. */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & {
  toString(): string;
};

/** No variables to pass when the operation declares none (or only optional ones). */
type VariablesArgument<TVariables> =
  Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];

/** The endpoint for an admin URL given with or without its /graphql path. */
export function graphqlEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/graphql') ? trimmed : `${trimmed}/graphql`;
}

/** The Location's origin only (its path or query may hold anything); undefined when absent or unreadable. */
function locationOrigin(response: Response, requested: string): string | undefined {
  const header = response.headers.get('location');
  try {
    const target = new URL(header ?? '', requested);
    return header ? (target.origin === 'null' ? target.protocol : target.origin) : undefined;
  } catch {
    return undefined;
  }
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

  async request<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    ...[variables]: VariablesArgument<TVariables>
  ): Promise<TResult> {
    const endpoint = graphqlEndpoint(this.connection.url);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${this.connection.token}`,
        },
        body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new ApiError(`Cannot reach ${this.connection.url}${cause}`, []);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const origin = locationOrigin(response, endpoint);
      const where = origin === undefined ? 'without a usable Location' : `to ${origin}`;
      throw new ApiError(
        `${this.connection.url} answered HTTP ${response.status} redirecting ${where}; not followed: the API token and the request go only to the admin URL given (use the admin API's own address)`,
        [],
        response.status,
      );
    }
    const text = await response.text();
    let body: { data?: TResult | null; errors?: GraphQLErrorBody[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = {};
    }
    if (!('data' in body) && !Array.isArray(body.errors)) {
      throw new ApiError(
        `${this.connection.url} answered HTTP ${response.status}, not GraphQL: ${this.#notTheAdminApi()}`,
        [],
        response.status,
      );
    }
    if (body.errors?.length) {
      throw new ApiError(describeErrors(body.errors), body.errors, response.status);
    }
    if (body.data == null) {
      throw new ApiError(`${this.connection.url} answered HTTP ${response.status} without data`, [], response.status);
    }
    return body.data;
  }

  /** The hint for an answer from another service (the gateway, a proxy): which setting to check. */
  #notTheAdminApi(): string {
    const source = this.connection.source ?? 'the admin URL';
    return `check ${source}: it must be the admin API's address (the one serving the console and /graphql), not the gateway's`;
  }
}
