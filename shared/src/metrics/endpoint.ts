import type { Registry } from 'prom-client';

/** The part of a Koa context the endpoint uses. */
interface MetricsContext {
  set(field: string, value: string): void;
  body: unknown;
}

/**
 * GET /metrics: the registry in Prometheus text format (`text/plain; version=0.0.4`), or what `read`
 * gives in that format (the sum of several processes). It exposes no
 * request value, but it is for the internal network: keep it behind the proxy that fronts the service.
 */
export function metricsEndpoint(registry: Registry, read: () => Promise<string> = () => registry.metrics()) {
  return async (ctx: MetricsContext): Promise<void> => {
    const text = await read();
    ctx.set('Content-Type', registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  };
}
