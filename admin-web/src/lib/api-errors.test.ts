import { describe, expect, it } from '@jest/globals';
import { CombinedError } from '@urql/core';
import { GraphQLError } from 'graphql';
import { describeError, errorExtensionList, fieldErrors, hasErrorCode } from './api-errors.js';

function apiError(message: string, extensions: Record<string, unknown>): CombinedError {
  return new CombinedError({ graphQLErrors: [new GraphQLError(message, { extensions })] });
}

describe('fieldErrors', () => {
  it('keys BAD_USER_INPUT by the form field, without the argument path in the message', () => {
    const error = apiError('input.name must be between 1 and 200 characters', {
      code: 'BAD_USER_INPUT',
      field: 'input.name',
    });
    expect(fieldErrors(error)).toEqual({ name: 'Must be between 1 and 200 characters' });
    expect(
      fieldErrors(apiError('currentPassword is not correct', { code: 'BAD_USER_INPUT', field: 'currentPassword' })),
    ).toEqual({
      currentPassword: 'Is not correct',
    });
  });

  it('ignores errors of other codes or without a field', () => {
    expect(fieldErrors(apiError('Site not found', { code: 'NOT_FOUND' }))).toEqual({});
    expect(fieldErrors(apiError('bad', { code: 'BAD_USER_INPUT' }))).toEqual({});
    expect(fieldErrors(undefined)).toEqual({});
  });
});

describe('describeError', () => {
  it('says what happened in words, leaving out what a field already shows', () => {
    const error = new CombinedError({
      graphQLErrors: [
        new GraphQLError('input.domain is not a host name', {
          extensions: { code: 'BAD_USER_INPUT', field: 'input.domain' },
        }),
        new GraphQLError('Too many attempts; try again later', { extensions: { code: 'RATE_LIMITED' } }),
      ],
    });
    expect(describeError(error, ['domain'])).toBe('Too many attempts; try again later');
    expect(describeError(error)).toBe('Input.domain is not a host name Too many attempts; try again later');
  });

  it('says when a locked-out attempt may be tried again, from the retryAfter the API sends', () => {
    const locked = apiError('Too many attempts; try again later', { code: 'RATE_LIMITED', retryAfter: 230 });
    const at = () => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(Date.now() + 230_000));
    // The clock may cross a minute between the two readings.
    const [before, text, after] = [at(), describeError(locked), at()];
    expect([before, after].map((time) => `Too many attempts. Try again in 4 minutes (at ${time}).`)).toContain(text);
    expect(
      describeError(apiError('Too many attempts; try again later', { code: 'RATE_LIMITED', retryAfter: 20 })),
    ).toMatch(/^Too many attempts\. Try again in 20 seconds \(at /);
  });

  it('never shows an internal message, and names a network failure', () => {
    expect(describeError(apiError('Internal server error', { code: 'INTERNAL_SERVER_ERROR' }))).toMatch(
      /^Something went wrong on the server/,
    );
    expect(describeError(new CombinedError({ networkError: new Error('fetch failed') }))).toMatch(
      /could not be reached/,
    );
  });

  it('finds codes', () => {
    expect(hasErrorCode(apiError('Authentication required', { code: 'UNAUTHENTICATED' }), 'UNAUTHENTICATED')).toBe(
      true,
    );
    expect(hasErrorCode(undefined, 'UNAUTHENTICATED')).toBe(false);
  });
});

describe('errorExtensionList', () => {
  it("reads SECOND_FACTOR_REQUIRED's methods, keeping only strings, and answers none when absent", () => {
    const required = (methods: unknown) =>
      apiError('Second factor required', { code: 'SECOND_FACTOR_REQUIRED', challenge: 'c', methods });
    expect(errorExtensionList(required(['totp', 'passkey']), 'SECOND_FACTOR_REQUIRED', 'methods')).toEqual([
      'totp',
      'passkey',
    ]);
    expect(errorExtensionList(required(['passkey', 7]), 'SECOND_FACTOR_REQUIRED', 'methods')).toEqual(['passkey']);
    expect(errorExtensionList(required(undefined), 'SECOND_FACTOR_REQUIRED', 'methods')).toEqual([]);
    expect(errorExtensionList(undefined, 'SECOND_FACTOR_REQUIRED', 'methods')).toEqual([]);
  });
});
