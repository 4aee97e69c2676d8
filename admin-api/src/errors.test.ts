import { AppError, ERROR_CATALOGUE, type ErrorCode } from '@intake/shared/errors';
import type { GraphQLError } from 'graphql';
import { badUserInput, forbidden, formatError, notFound, rateLimited, unauthenticated } from './errors.js';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

describe('formatError', () => {
  it("answers an AppError with its catalogue entry's GraphQL code and its detail", () => {
    for (const code of CODES.filter((each) => each !== 'internal_error')) {
      const answer = formatError({ message: 'wrapped' }, new AppError(code, 'Said for people.'));
      expect({ code, answer }).toEqual({
        code,
        answer: { message: 'Said for people.', extensions: { code: ERROR_CATALOGUE[code].graphqlCode } },
      });
    }
  });

  it('masks an unknown error, and an internal AppError, as INTERNAL_SERVER_ERROR saying nothing', () => {
    for (const error of [
      new Error('password=hunter2 at db.internal:5432'),
      new AppError('internal_error', 'hunter2'),
    ]) {
      const answer = formatError({ message: error.message, path: ['sites'] }, error);
      expect(answer).toEqual({
        message: 'Internal server error',
        path: ['sites'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    }
  });
});

describe('the GraphQL error factories', () => {
  it('build their errors from the catalogue', () => {
    const built: [GraphQLError, ErrorCode][] = [
      [unauthenticated(), 'unauthenticated'],
      [forbidden('API tokens cannot change passwords'), 'forbidden'],
      [badUserInput('input.name', 'is required'), 'bad_user_input'],
      [notFound('Site'), 'not_found'],
      [rateLimited(3), 'rate_limited'],
    ];
    for (const [error, code] of built) {
      expect({ code, graphqlCode: error.extensions.code }).toEqual({
        code,
        graphqlCode: ERROR_CATALOGUE[code].graphqlCode,
      });
      // They pass formatError as they are.
      expect(formatError({ message: error.message, extensions: error.extensions }, error).extensions?.code).toBe(
        ERROR_CATALOGUE[code].graphqlCode,
      );
    }
  });

  it('send the HTTP status of the entry only where the transport carries it (401 and 429)', () => {
    const statusOf = (error: GraphQLError) => (error.extensions.http as { status?: number } | undefined)?.status;
    expect(statusOf(unauthenticated())).toBe(ERROR_CATALOGUE.unauthenticated.status);
    expect(statusOf(rateLimited(3))).toBe(ERROR_CATALOGUE.rate_limited.status);
    expect(statusOf(notFound('Site'))).toBeUndefined();
    expect(statusOf(badUserInput('id', 'is not an id'))).toBeUndefined();
  });
});
