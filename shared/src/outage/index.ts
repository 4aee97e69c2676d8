// Which failures mean "the database or the file storage cannot serve right now" (503, retry later)
// rather than a fault of the request or of the code (500). One classification, and one answer
// (service_unavailable, retry after 5 seconds), for both services.
import { ConnectionException } from '@mikro-orm/core';
import { AppError, isAppError } from '../errors/index.js';

/** Seconds a client is told to wait after an outage (Retry-After, GraphQL `retryAfter`). */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

// Node's socket errors: the server or the storage is not there.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

// PostgreSQL SQLSTATEs that mean the server will not serve this session, whatever the query.
const OUTAGE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the backend was terminated (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections: max_connections, or the database's or role's CONNECTION LIMIT
]);
/** Class 08, connection exception: every member is the connection failing. */
const CONNECTION_CLASS = /^08[0-9A-Z]{3}$/;

const OUTAGE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|pool is draining/i;

/** Set on an error raised while getting a pooled connection (see pool-guard.ts). */
export const CONNECT_PHASE = 'connect';

interface ErrorLike {
  message: string;
  code?: unknown;
  severity?: unknown;
  phase?: unknown;
  cause?: unknown;
}

// Not `instanceof Error`: errors raised by Node itself (socket resets) may come from another realm
// than the code that catches them (a vm context, as under jest), and would then go unrecognised.
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string';
}

function saysOutage(error: ErrorLike): boolean {
  // Getting a connection at all failed: an outage whatever the reason (55000 "not currently
  // accepting connections", a refused login, a full server), never a fault of the request.
  if (error.phase === CONNECT_PHASE) {
    return true;
  }
  // FATAL ends the session: PostgreSQL refused or dropped the connection itself.
  if (error.severity === 'FATAL' || error.severity === 'PANIC') {
    return true;
  }
  const code = typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code) || OUTAGE_SQLSTATES.has(code) || CONNECTION_CLASS.test(code)) {
    return true;
  }
  return OUTAGE_MESSAGE.test(error.message);
}

/** True when the error (or one of its causes) says the database or the storage could not serve. */
export function isServiceOutage(error: unknown): boolean {
  if (error instanceof ConnectionException) {
    return true;
  }
  for (let current = error, depth = 0; isErrorLike(current) && depth < 10; current = current.cause, depth++) {
    if (saysOutage(current)) {
      return true;
    }
  }
  return false;
}

/** Marks an error raised while getting a connection, so isServiceOutage knows its phase. */
export function markConnectFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) {
    try {
      (error as ErrorLike).phase = CONNECT_PHASE;
    } catch {
      // A frozen error keeps its own classification.
    }
  }
  return error;
}

/** True when the error says the database or the storage could not serve (an AppError is a decided answer). */
export function isOutage(error: unknown): boolean {
  return !isAppError(error) && isServiceOutage(error);
}

/** Maps an outage of the database or the storage to service_unavailable; leaves others as they are. */
export function toServiceError(error: unknown): unknown {
  if (isOutage(error)) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable. Retry later.', {
      retryAfter: OUTAGE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  return error;
}
