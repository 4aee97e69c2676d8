import type { Logger } from '../logger/index.js';

/** What one answered request was: the only fields an access line may hold. */
export interface RequestObservation {
  service: string;
  requestId: string | undefined;
  method: string;
  /** The matched route pattern (`/api/v1/send/:code`), or `unmatched`: never the raw path. */
  route: string;
  status: number;
  durationMs: number;
  /** The client went away before the whole answer was sent. */
  aborted: boolean;
  siteId?: string | undefined;
  formId?: string | undefined;
  /** The error catalogue code of a refusal. */
  code?: string | undefined;
}

/**
 * Writes the one access line of a request (`msg: "request"`). It is built field by field from the
 * observation, never from the request: no header, query, body, token or file name can get in.
 * Server faults are logged at error level, a `quiet` route's other answers (the console's files,
 * 20 to 30 a page load) at debug, everything else at info.
 */
export function writeAccessLine(logger: Logger, observation: RequestObservation, quiet = false): void {
  const line: Record<string, unknown> = {
    service: observation.service,
    requestId: observation.requestId,
    method: observation.method,
    route: observation.route,
    status: observation.status,
    durationMs: Math.round(observation.durationMs * 1000) / 1000,
  };
  if (observation.siteId !== undefined) {
    line.siteId = observation.siteId;
  }
  if (observation.formId !== undefined) {
    line.formId = observation.formId;
  }
  if (observation.code !== undefined) {
    line.code = observation.code;
  }
  if (observation.aborted) {
    line.aborted = true;
  }
  if (observation.status >= 500) {
    logger.error(line, 'request');
  } else if (quiet) {
    logger.debug(line, 'request');
  } else {
    logger.info(line, 'request');
  }
}
