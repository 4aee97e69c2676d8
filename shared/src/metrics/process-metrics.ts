import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';

// prom-client's default metrics (CPU, memory, event loop lag, GC, handles) describe the process,
// and each collection starts its own event-loop monitor and GC observer that are never stopped.
// So they are collected once per process and the same metric objects are shown by every service
// registry: two services in one process (`npm start`) and the many apps of a test run share them.
let processMetrics: Metric[] | undefined;

/** The process metrics, created on first use. */
export function defaultProcessMetrics(): readonly Metric[] {
  if (!processMetrics) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    processMetrics = registry
      .getMetricsAsArray()
      .map(({ name }) => registry.getSingleMetric(name))
      .filter((metric) => metric !== undefined);
  }
  return processMetrics;
}
