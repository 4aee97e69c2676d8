import type { ServerResponse } from 'node:http';
import type { Logger } from '../logger/index.js';
import { requestDurationChildren } from '../metrics/request-duration.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { writeAccessLine, type RequestObservation } from './access-log.js';

/** The part of a Koa context (with @koa/router) the observer reads. */
export interface ObservedContext {
  method: string;
  res: ServerResponse;
  /** `route`: the label a handler outside the router gives its answers (the admin's console files). */
  state: { requestId?: string; route?: string };
  /** Set by @koa/router to the pattern of the route that answered. */
  _matchedRoute?: string | RegExp | undefined;
}

/** Identifiers a service knows about a request (never values). */
export type RequestDetails = Pick<RequestObservation, 'siteId' | 'formId' | 'code'>;

export interface ObserveRequestsOptions<C extends ObservedContext> {
  metrics: ServiceMetrics;
  logger: Logger;
  /** Ids and refusal code of the request, read once it is answered. */
  describe?: (ctx: C) => RequestDetails;
  /** Routes whose access lines go to debug unless a server fault: static files, not worth a line each. */
  quietRoutes?: readonly string[];
  /** Service-specific accounting (submissions, refusals) after the access line. */
  onObserved?: (ctx: C, observation: RequestObservation) => void;
}

export const UNMATCHED_ROUTE = 'unmatched';

/** The route label: the pattern, so a form code or an id never becomes a label value. */
export function routeLabel(ctx: ObservedContext): string {
  return typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : (ctx.state.route ?? UNMATCHED_ROUTE);
}

/**
 * Times every request from its arrival to the close of its response (so a streamed download counts
 * whole), then writes one access line and one sample of `http_request_duration_seconds`. Goes right
 * after the request id and before the error handler, so it sees the status that was really sent.
 */
export function observeRequests<C extends ObservedContext>(options: ObserveRequestsOptions<C>) {
  const { metrics, logger, describe, onObserved } = options;
  const quietRoutes = new Set(options.quietRoutes);
  const durationOf = requestDurationChildren(metrics);

  function record(answered: C, started: number): void {
    const details = describe?.(answered);
    const observation: RequestObservation = {
      service: metrics.service,
      requestId: answered.state.requestId,
      method: answered.method,
      route: routeLabel(answered),
      status: answered.res.statusCode,
      durationMs: performance.now() - started,
      aborted: !answered.res.writableFinished,
    };
    if (details !== undefined) {
      observation.siteId = details.siteId;
      observation.formId = details.formId;
      observation.code = details.code;
    }
    writeAccessLine(logger, observation, quietRoutes.has(observation.route));
    durationOf(observation.method, observation.route, observation.status).observe(observation.durationMs / 1000);
    onObserved?.(answered, observation);
  }

  return async (ctx: C, next: () => Promise<unknown>): Promise<void> => {
    const started = performance.now();
    // Recorded once both happened: the middleware below returned, and 'close' (which comes once
    // for every response: after the last byte, or when the client went away). Koa writes the
    // answer after the middleware returns, so 'close' usually comes last.
    let waitingFor = 2;
    const recordWhenBoth = () => {
      if (--waitingFor === 0) {
        try {
          record(ctx, started);
        } catch {
          // A failing logger or hook must not become an uncaught exception; the answer is gone already.
        }
      }
    };
    ctx.res.once('close', recordWhenBoth);
    try {
      await next();
    } finally {
      recordWhenBoth();
    }
  };
}
