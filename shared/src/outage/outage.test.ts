import { runInNewContext } from 'node:vm';
import { AppError, isAppError } from '../errors/index.js';
import { markConnectFailure, toServiceError } from './index.js';

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

  it.each([
    ['57P01', 'ERROR'],
    ['57P02', 'ERROR'],
    ['57P03', 'FATAL'],
    ['53300', 'FATAL'],
    ['08006', 'ERROR'],
    ['08P01', 'ERROR'],
    ['55000', 'FATAL'],
    ['28P01', 'FATAL'],
  ])('recognises SQLSTATE %s (severity %s)', (code, severity) => {
    expect(codeOf(Object.assign(new Error('server said no'), { code, severity }))).toBe('service_unavailable');
  });

  it('recognises any failure to get a connection, whatever it says', () => {
    const failed = markConnectFailure(Object.assign(new Error('something new'), { code: '55000' }));
    expect(codeOf(failed)).toBe('service_unavailable');
  });

  it('leaves a query-level 55000 or 53400 alone: the session is fine, the statement is wrong', () => {
    for (const code of ['55000', '53400', '23505', '42P01']) {
      const error = Object.assign(new Error('statement refused'), { code, severity: 'ERROR' });
      expect(toServiceError(error)).toBe(error);
    }
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
