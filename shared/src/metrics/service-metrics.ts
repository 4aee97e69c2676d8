import { Histogram, Registry } from 'prom-client';
import { defaultProcessMetrics } from './process-metrics.js';

export type ServiceName = 'gateway' | 'admin';

export type HttpLabel = 'service' | 'method' | 'route' | 'status';

/** One registry per app instance: tests start many apps in one process, so never the global one. */
export interface ServiceMetrics {
  service: ServiceName;
  registry: Registry;
  /** Labelled with the matched route pattern (never the raw path) and the answered status. */
  httpRequestDuration: Histogram<HttpLabel>;
}

// From 5 ms to 30 s: an answer from memory up to a large upload scanned by ClamAV.
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createServiceMetrics(service: ServiceName): ServiceMetrics {
  const registry = new Registry();
  for (const metric of defaultProcessMetrics()) {
    registry.registerMetric(metric);
  }
  const httpRequestDuration = new Histogram<HttpLabel>({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by matched route and status.',
    labelNames: ['service', 'method', 'route', 'status'],
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  return { service, registry, httpRequestDuration };
}
