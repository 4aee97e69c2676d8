import type { Registry } from 'prom-client';

/** The part of a Koa context the endpoint uses. */
interface MetricsContext {
  set(field: string, value: string): void;
  body: unknown;
}

/**
 * GET /metrics: the registry in Prometheus text format (`text/plain; version=0.0.4`). It exposes no
 * request value, but it is for the internal network: keep it behind the proxy that fronts the service.
 */
export function metricsEndpoint(registry: Registry) {
  return async (ctx: MetricsContext): Promise<void> => {
    const text = await registry.metrics();
    ctx.set('Content-Type', registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  };
}
