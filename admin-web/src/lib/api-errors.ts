// Errors from the admin API in words, for a person: a field's BAD_USER_INPUT next to that field, the
// rest in an alert or a notification. The API's message for a bad argument starts with the argument's
// path (`input.name must be between 1 and 200 characters`); next to the field the path is dropped.
import type { GraphQLErrorCode } from '@intake/contract';
import type { GraphQLError } from 'graphql';
import type { CombinedError } from 'urql';
import { formatRetryAfter } from './format';

/** The admin API's `extensions.code` values, from the one catalogue (@intake/contract). */
export type ApiErrorCode = GraphQLErrorCode;

export function errorCodes(error: CombinedError | undefined): string[] {
  return (error?.graphQLErrors ?? []).map((graphQLError) => String(graphQLError.extensions?.code ?? ''));
}

export function hasErrorCode(error: CombinedError | undefined, code: ApiErrorCode): boolean {
  return errorCodes(error).includes(code);
}

/** A string in the `extensions` of the first error with `code` (the challenge of SECOND_FACTOR_REQUIRED). */
export function errorExtension(error: CombinedError | undefined, code: ApiErrorCode, key: string): string | null {
  const found = (error?.graphQLErrors ?? []).find((graphQLError) => graphQLError.extensions?.code === code);
  const value = found?.extensions?.[key];
  return typeof value === 'string' ? value : null;
}

/** The strings of a list in the `extensions` of the first error with `code` (SECOND_FACTOR_REQUIRED's `methods`). */
export function errorExtensionList(error: CombinedError | undefined, code: ApiErrorCode, key: string): string[] {
  const found = (error?.graphQLErrors ?? []).find((graphQLError) => graphQLError.extensions?.code === code);
  const value: unknown = found?.extensions?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * BAD_USER_INPUT messages keyed by form field: `input.name` → `name` (the argument path without the
 * `input.` wrapper), the message without its leading path.
 */
export function fieldErrors(error: CombinedError | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const graphQLError of error?.graphQLErrors ?? []) {
    const field = graphQLError.extensions?.field;
    if (graphQLError.extensions?.code !== 'BAD_USER_INPUT' || typeof field !== 'string') {
      continue;
    }
    const key = field.startsWith('input.') ? field.slice('input.'.length) : field;
    const message = graphQLError.message.startsWith(`${field} `)
      ? graphQLError.message.slice(field.length + 1)
      : graphQLError.message;
    errors[key] ??= capitalise(message);
  }
  return errors;
}

function describeOne(error: GraphQLError): string {
  const { message } = error;
  switch (String(error.extensions?.code ?? '')) {
    case 'UNAUTHENTICATED':
      return message || 'Your session has ended; sign in again.';
    case 'RATE_LIMITED': {
      // The API says how long the lockout lasts (`retryAfter`, seconds, as in its Retry-After header).
      const retryAfter = error.extensions?.retryAfter;
      return typeof retryAfter === 'number' && retryAfter > 0
        ? `Too many attempts. Try again ${formatRetryAfter(retryAfter)}.`
        : message || 'Too many attempts; try again later.';
    }
    case 'SERVICE_UNAVAILABLE':
      return `The service is unavailable for a moment: ${message}. Try again shortly.`;
    case 'INTERNAL_SERVER_ERROR':
      return 'Something went wrong on the server. Try again; if it goes on, ask the operator to check the logs.';
    default:
      return capitalise(message);
  }
}

/** The whole error in words (network failures included), for an alert or a notification. */
export function describeError(error: CombinedError | undefined, skipFields: readonly string[] = []): string {
  if (error === undefined) {
    return '';
  }
  if (error.networkError && error.graphQLErrors.length === 0) {
    return 'The admin service could not be reached. Check your connection and try again.';
  }
  const shown = fieldErrors(error);
  return error.graphQLErrors
    .filter((graphQLError) => {
      const field = graphQLError.extensions?.field;
      if (typeof field !== 'string') {
        return true;
      }
      const key = field.startsWith('input.') ? field.slice('input.'.length) : field;
      // A list's items are shown next to their own inputs (`fields.2.name` under `fields`).
      const elsewhere = skipFields.some((skipped) => key === skipped || key.startsWith(`${skipped}.`));
      return !(elsewhere && shown[key] !== undefined);
    })
    .map((graphQLError) => describeOne(graphQLError))
    .join(' ');
}
