import { Writable } from 'node:stream';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createLogger } from './index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('info', {}, destination) };
}

describe('the logger', () => {
  it('logs a database error without its statement, its values or PostgreSQL detail', () => {
    const { lines, logger } = capture();
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "submissions_key"'), {
      code: '23505',
      detail: 'Key (idempotency_key)=(secret-value-1) already exists.',
    });
    const error = Object.assign(new UniqueConstraintViolationException(cause), {
      query: 'insert into submissions (data) values (\'{"email":"secret-value-2"}\')',
      params: ['secret-value-3'],
    });
    logger.error({ err: error, requestId: 'r-1' }, 'unhandled error');
    const [line] = lines;
    const text = JSON.stringify(line);
    expect(text).not.toMatch(/secret-value/);
    expect(line).toEqual(
      expect.objectContaining({
        msg: 'unhandled error',
        requestId: 'r-1',
        err: expect.objectContaining({ type: 'UniqueConstraintViolationException', code: '23505' }),
      }),
    );
    expect((line!.err as { message: string }).message).toContain('duplicate key value');
  });
});
