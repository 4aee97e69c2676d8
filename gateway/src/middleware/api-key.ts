import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@intake/shared/errors';
import type { IntakeMiddleware } from '../context.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Compares X-KEY-SERVICE with API_KEY in constant time: both sides are hashed to equal-length
 * digests first, so neither the content nor the length of the key leaks through timing.
 */
export function apiKey(expected: string): IntakeMiddleware {
  const expectedDigest = digest(expected);
  return async (ctx, next) => {
    const sent = ctx.get('X-KEY-SERVICE');
    if (sent === '') {
      throw new AppError('api_key_missing', 'The X-KEY-SERVICE header is required.');
    }
    if (!timingSafeEqual(digest(sent), expectedDigest)) {
      throw new AppError('api_key_invalid', 'The X-KEY-SERVICE header is not valid.');
    }
    await next();
  };
}
