import { AppError, toProblem } from './index.js';

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
});
