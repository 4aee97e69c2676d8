// The admin API's error catalogue: every error a client may see carries a stable `extensions.code`.
// A database or storage outage is SERVICE_UNAVAILABLE with `retryAfter`: the gateway's own mapping
// (toServiceError in @intake/shared), so both services answer an outage alike. Anything else (a bug, an ORM exception) is masked as
// INTERNAL_SERVER_ERROR by `formatError`; both are logged with the request id by the
// error-logging plugin.
import { HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError, type AppError } from '@intake/shared/errors';
import { isOutage, toServiceError } from '@intake/shared/outage';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

// Codes whose message is written for the client: ours, and Apollo's own request/validation errors.
const EXPOSED_CODES = new Set<string>([
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.FORBIDDEN,
  ErrorCode.BAD_USER_INPUT,
  ErrorCode.NOT_FOUND,
  ErrorCode.RATE_LIMITED,
  ErrorCode.SERVICE_UNAVAILABLE,
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

export function unauthenticated(message = 'Authentication required'): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      code: ErrorCode.UNAUTHENTICATED,
      http: { status: 401, headers: new HeaderMap([['www-authenticate', 'Bearer']]) },
    },
  });
}

export function forbidden(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.FORBIDDEN } });
}

/** A bad argument; `field` is its path in the operation's arguments (`input.name`, `id`). */
export function badUserInput(field: string, problem: string): GraphQLError {
  return new GraphQLError(`${field} ${problem}`, { extensions: { code: ErrorCode.BAD_USER_INPUT, field } });
}

export function notFound(what: string): GraphQLError {
  return new GraphQLError(`${what} not found`, { extensions: { code: ErrorCode.NOT_FOUND } });
}

export function rateLimited(retryAfterSeconds: number): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return new GraphQLError('Too many attempts; try again later', {
    extensions: {
      code: ErrorCode.RATE_LIMITED,
      retryAfter,
      http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
    },
  });
}

/** The error under a resolver's or context creation's wrapping (Apollo wraps the latter as `originalError`). */
function unwrapped(error: unknown): unknown {
  let current: unknown = unwrapResolverError(error);
  for (let depth = 0; current instanceof GraphQLError && depth < 5; depth++) {
    current = current.originalError;
  }
  return current;
}

/** True when the error says the database or the storage could not serve. */
export function isOutageError(error: unknown): boolean {
  return isOutage(unwrapped(error));
}

/** True when the error (as the pipeline saw it) may be shown to the client as it is. */
export function isExposedError(error: unknown): boolean {
  const original = unwrapResolverError(error);
  if (isAppError(original)) {
    return original.code !== 'internal_error';
  }
  if (original instanceof GraphQLError) {
    const code = original.extensions.code;
    return typeof code === 'string' && EXPOSED_CODES.has(code);
  }
  return false;
}

/**
 * Apollo's `formatError`: exposed errors pass (an AppError from a shared module becomes its code in
 * upper case, e.g. SERVICE_UNAVAILABLE); everything else becomes a generic internal error that says
 * nothing about internals.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const where = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  if (isAppError(original) && original.code !== 'internal_error') {
    return { message: original.detail, ...where, extensions: { code: original.code.toUpperCase() } };
  }
  if (isExposedError(error)) {
    return formatted;
  }
  if (isOutageError(error)) {
    const answer = toServiceError(unwrapped(error)) as AppError;
    return {
      message: answer.detail,
      ...where,
      extensions: { code: ErrorCode.SERVICE_UNAVAILABLE, retryAfter: answer.retryAfter },
    };
  }
  return { message: 'Internal server error', ...where, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
}
