import type { Histogram } from 'prom-client';
import type { HttpLabel, ServiceMetrics } from './service-metrics.js';

type DurationChild = Histogram.Internal<HttpLabel>;

/**
 * `http_request_duration_seconds` children, each resolved with `labels(...)` once per method, route
 * and status and kept: a request then builds no label object. The sets are as few as the series
 * (methods Node's parser knows, route patterns, statuses), so the cache is bounded as they are.
 */
export function requestDurationChildren(metrics: ServiceMetrics) {
  const byMethod = new Map<string, Map<string, Map<number, DurationChild>>>();
  return (method: string, route: string, status: number): DurationChild => {
    let byRoute = byMethod.get(method);
    if (byRoute === undefined) {
      byRoute = new Map();
      byMethod.set(method, byRoute);
    }
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) {
      byStatus = new Map();
      byRoute.set(route, byStatus);
    }
    let child = byStatus.get(status);
    if (child === undefined) {
      child = metrics.httpRequestDuration.labels({ service: metrics.service, method, route, status: String(status) });
      byStatus.set(status, child);
    }
    return child;
  };
}
