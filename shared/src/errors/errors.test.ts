import * as contract from '@intake/contract';
import { AppError, codesAnsweredAs, ERROR_CATALOGUE, toProblem, type ErrorCode } from './index.js';

const CODES = Object.keys(contract.ERROR_CATALOGUE) as ErrorCode[];

// The catalogue itself and its documentation are held by contract/src/problems.test.ts.
describe('the errors the kernel throws', () => {
  it("are the contract's catalogue, not a copy of it", () => {
    expect(ERROR_CATALOGUE).toBe(contract.ERROR_CATALOGUE);
    expect(codesAnsweredAs('problem')).toEqual(contract.PROBLEM_CODES);
  });

  it("carry each code's status, GraphQL code and title from the contract, and render them as a problem", () => {
    for (const code of CODES) {
      const entry = contract.ERROR_CATALOGUE[code];
      const error = new AppError(code);
      expect({ code, status: error.status, graphqlCode: error.graphqlCode, title: error.title }).toEqual({
        code,
        status: entry.status,
        graphqlCode: entry.graphqlCode,
        title: entry.title,
      });
      expect(toProblem(error)).toEqual({
        type: `urn:intake:problem:${code}`,
        title: entry.title,
        status: entry.status,
        detail: entry.title,
        code,
      });
    }
  });
});

describe('toProblem', () => {
  it('renders a catalogued error with its status and code', () => {
    const problem = toProblem(new AppError('token_invalid', 'The site token is not valid.'));
    expect(problem).toEqual({
      type: 'urn:intake:problem:token_invalid',
      title: 'Site token invalid',
      status: 403,
      detail: 'The site token is not valid.',
      code: 'token_invalid',
    });
  });

  it('masks an unknown error as a generic 500 without its message', () => {
    const problem = toProblem(new Error('password=hunter2 at db.internal:5432'));
    expect(problem.status).toBe(500);
    expect(problem.code).toBe('internal_error');
    expect(JSON.stringify(problem)).not.toContain('hunter2');
  });

  it('keeps Retry-After seconds on the error', () => {
    expect(new AppError('service_unavailable', undefined, { retryAfter: 5 }).retryAfter).toBe(5);
  });

  it("carries the entry's GraphQL code for the admin API", () => {
    expect(new AppError('service_unavailable').graphqlCode).toBe('SERVICE_UNAVAILABLE');
  });
});
