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

const OUTAGE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|pool is draining/i;

interface ErrorLike {
  message: string;
  code?: unknown;
  cause?: unknown;
}

// Not `instanceof Error`: errors raised by Node itself (socket resets) may come from another realm
// than the code that catches them (a vm context, as under jest), and would then go unrecognised.
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string';
}

function hasOutageCode(error: unknown): boolean {
  for (let current = error, depth = 0; isErrorLike(current) && depth < 10; current = current.cause, depth++) {
    if (typeof current.code === 'string' && OUTAGE_CODES.has(current.code)) {
      return true;
    }
    if (OUTAGE_MESSAGE.test(current.message)) {
      return true;
    }
  }
  return false;
}

/** True when the error says the database or the storage could not be reached (not a refusal). */
export function isOutage(error: unknown): boolean {
  return !isAppError(error) && (error instanceof ConnectionException || hasOutageCode(error));
}

/** Maps an outage of the database or the storage to 503 service_unavailable; leaves others. */
export function toServiceError(error: unknown): unknown {
  if (isOutage(error)) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable. Retry later.', {
      retryAfter: 5,
      cause: error,
    });
  }
  return error;
}
