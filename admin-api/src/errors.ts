// The admin API's side of the error catalogue (@intake/shared/errors): the GraphQL errors its
// operations throw are built from catalogue entries, and `formatError` answers every error with an
// entry's `extensions.code`. A database or storage outage is SERVICE_UNAVAILABLE with `retryAfter`: the gateway's own mapping
// (toServiceError in @intake/shared), so both services answer an outage alike. Anything else (a bug, an ORM exception) is masked as
// INTERNAL_SERVER_ERROR by `formatError`; both are logged with the request id by the
// error-logging plugin.
import { HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import {
  codesAnsweredAs,
  ERROR_CATALOGUE,
  isAppError,
  type AppError,
  type ErrorCode as CatalogueCode,
} from '@intake/shared/errors';
import { isOutage, toServiceError } from '@intake/shared/outage';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/** The admin API's `extensions.code` values by name, read from the catalogue (not a second list). */
export const ErrorCode = {
  UNAUTHENTICATED: ERROR_CATALOGUE.unauthenticated.graphqlCode,
  FORBIDDEN: ERROR_CATALOGUE.forbidden.graphqlCode,
  BAD_USER_INPUT: ERROR_CATALOGUE.bad_user_input.graphqlCode,
  NOT_FOUND: ERROR_CATALOGUE.not_found.graphqlCode,
  RATE_LIMITED: ERROR_CATALOGUE.rate_limited.graphqlCode,
  SECOND_FACTOR_REQUIRED: ERROR_CATALOGUE.second_factor_required.graphqlCode,
  SECOND_FACTOR_ENROLMENT_REQUIRED: ERROR_CATALOGUE.second_factor_enrolment_required.graphqlCode,
  RECENT_SIGN_IN_REQUIRED: ERROR_CATALOGUE.recent_sign_in_required.graphqlCode,
  SERVICE_UNAVAILABLE: ERROR_CATALOGUE.service_unavailable.graphqlCode,
  INTERNAL_SERVER_ERROR: ERROR_CATALOGUE.internal_error.graphqlCode,
} as const;

// The exposed codes: the catalogue's GraphQL ones, and Apollo's own request/validation errors,
// whose messages are written for the client too.
const EXPOSED_CODES = new Set<string>([
  ...codesAnsweredAs('graphql')
    .filter((code) => code !== 'internal_error')
    .map((code) => ERROR_CATALOGUE[code].graphqlCode),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/**
 * A GraphQL error for a catalogue entry. The HTTP status goes with it only when `headers` are
 * given (401 and 429): every other refusal is part of an answer sent with 200.
 */
function catalogued(
  code: CatalogueCode,
  message: string,
  extensions: Record<string, unknown> = {},
  headers?: HeaderMap,
): GraphQLError {
  const entry = ERROR_CATALOGUE[code];
  return new GraphQLError(message, {
    extensions: {
      code: entry.graphqlCode,
      ...extensions,
      ...(headers ? { http: { status: entry.status, headers } } : {}),
    },
  });
}

export function unauthenticated(message: string = ERROR_CATALOGUE.unauthenticated.title): GraphQLError {
  return catalogued('unauthenticated', message, {}, new HeaderMap([['www-authenticate', 'Bearer']]));
}

export function forbidden(message: string): GraphQLError {
  return catalogued('forbidden', message);
}

/** A bad argument; `field` is its path in the operation's arguments (`input.name`, `id`). */
export function badUserInput(field: string, problem: string): GraphQLError {
  return catalogued('bad_user_input', `${field} ${problem}`, { field });
}

/**
 * The password was right and a code must follow: the challenge (single use, short-lived) stands in
 * for the password in `verifySecondFactor`, so the console need not keep the password.
 */
export type SecondFactorKind = 'totp' | 'passkey';

const SECOND_FACTOR_PROMPTS: Record<string, string> = {
  totp: 'Enter the code of your authenticator app or a recovery code',
  passkey: 'Confirm with your passkey',
  'totp,passkey': 'Confirm with your passkey, or enter the code of your authenticator app or a recovery code',
};

/** `methods`: what the member has, `totp` (codes and recovery codes, `verifySecondFactor`) and `passkey`. */
export function secondFactorRequired(
  challenge: string,
  expiresAt: Date,
  methods: readonly SecondFactorKind[],
): GraphQLError {
  return catalogued('second_factor_required', SECOND_FACTOR_PROMPTS[methods.join(',')]!, {
    challenge,
    challengeExpiresAt: expiresAt.toISOString(),
    methods,
  });
}

export function secondFactorEnrolmentRequired(): GraphQLError {
  return catalogued(
    'second_factor_enrolment_required',
    'Your team requires two-factor sign-in: set it up (startTwoFactorEnrolment, confirmTwoFactor) before anything else',
  );
}

/**
 * The operation adds a way in or changes how the team signs in, and the session or admin token was
 * not started within the last `withinSeconds`: `methods` says what `confirmSignIn` accepts from them.
 */
export function recentSignInRequired(methods: readonly string[], withinSeconds: number): GraphQLError {
  return catalogued(
    'recent_sign_in_required',
    `This change needs a sign-in within the last ${withinSeconds / 60} minutes: confirm it is you (confirmSignIn with your password, a code or a passkey), then try again`,
    { methods, withinSeconds },
  );
}

export function notFound(what: string): GraphQLError {
  return catalogued('not_found', `${what} not found`);
}

export function rateLimited(retryAfterSeconds: number): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return catalogued(
    'rate_limited',
    'Too many attempts; try again later',
    { retryAfter },
    new HeaderMap([['retry-after', String(retryAfter)]]),
  );
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
 * Apollo's `formatError`: exposed errors pass (an AppError from a shared module is answered with its
 * entry's `graphqlCode`, e.g. SERVICE_UNAVAILABLE); everything else becomes a generic internal error that says
 * nothing about internals.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const where = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  if (isAppError(original) && original.code !== 'internal_error') {
    return { message: original.detail, ...where, extensions: { code: original.graphqlCode } };
  }
  if (isExposedError(error)) {
    return formatted;
  }
  if (isOutageError(error)) {
    const answer = toServiceError(unwrapped(error)) as AppError;
    return {
      message: answer.detail,
      ...where,
      extensions: { code: answer.graphqlCode, retryAfter: answer.retryAfter },
    };
  }
  const internal = ERROR_CATALOGUE.internal_error;
  return { message: internal.title, ...where, extensions: { code: internal.graphqlCode } };
}
