import { runInNewContext } from 'node:vm';
import { AppError, isAppError } from '@intake/shared';
import { toServiceError } from './service-errors.js';

function codeOf(error: unknown): string | undefined {
  const mapped = toServiceError(error);
  return isAppError(mapped) ? mapped.code : undefined;
}

describe('database and storage outages become 503 service_unavailable', () => {
  it('recognises a socket error by its code, also when it was raised in another realm', () => {
    const foreign = runInNewContext('Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })') as unknown;
    expect(foreign instanceof Error).toBe(false);
    expect(codeOf(foreign)).toBe('service_unavailable');
    expect(codeOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(
      'service_unavailable',
    );
  });

  it('recognises an outage wrapped as the cause of another error', () => {
    const wrapped = new Error('flush failed', { cause: new Error('Connection terminated unexpectedly') });
    expect(codeOf(wrapped)).toBe('service_unavailable');
  });

  it('recognises a pool that had no connection to give within its timeout', () => {
    expect(codeOf(new Error('timeout exceeded when trying to connect'))).toBe('service_unavailable');
  });

  it('sets Retry-After', () => {
    const mapped = toServiceError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }));
    expect((mapped as AppError).retryAfter).toBeGreaterThan(0);
  });

  it('leaves other errors alone: a programming error stays a 500', () => {
    const bug = new TypeError('cannot read properties of undefined');
    expect(toServiceError(bug)).toBe(bug);
    expect(toServiceError('a string')).toBe('a string');
    const appError = new AppError('body_invalid');
    expect(toServiceError(appError)).toBe(appError);
  });
});
