import { AppError, isAppError, isServiceOutage } from '@intake/shared';

// The outage classification (SQLSTATE class and phase, socket errors) lives in @intake/shared, so
// the admin API answers the same outages the same way.

/** True when the error says the database or the storage could not be reached (not a refusal). */
export function isOutage(error: unknown): boolean {
  return !isAppError(error) && isServiceOutage(error);
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
