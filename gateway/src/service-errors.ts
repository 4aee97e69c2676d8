import { AppError, isAppError } from '@intake/shared';
import { ConnectionException } from '@mikro-orm/core';

// Node and PostgreSQL error codes that mean "the database or the disk is not there right now".
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08006',
]);

function hasOutageCode(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && OUTAGE_CODES.has(code)) {
      return true;
    }
    if (
      /Connection terminated|connection timeout|not queryable|Client was closed|pool is draining/i.test(current.message)
    ) {
      return true;
    }
  }
  return false;
}

/** Maps an outage of the database or the storage to 503 service_unavailable; leaves others. */
export function toServiceError(error: unknown): unknown {
  if (isAppError(error)) {
    return error;
  }
  if (error instanceof ConnectionException || hasOutageCode(error)) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable. Retry later.', {
      retryAfter: 5,
      cause: error,
    });
  }
  return error;
}
