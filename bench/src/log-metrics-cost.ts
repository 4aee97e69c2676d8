// CPU per request of the gateway's request accounting, timed apart: the request id, the observer
// (timing, the `close` wait), the access line through the service logger's stdout stream and the
// metrics of an accepted plain submission, wired as gateway/src/app.ts does. The lines go to
// stdout, so send it to /dev/null; the figure is printed on stderr:
//   node bench/dist/log-metrics-cost.js [seconds] > /dev/null
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Database } from '@intake/shared/db';
import { observeRequests, requestId, type ObservedContext } from '@intake/shared/http';
import { createLogger, flushLogs } from '@intake/shared/logger';
import { countIntakeOutcome, createGatewayMetrics, describeIntakeRequest, SEND_ROUTE } from '@intake/gateway/metrics';
import { cpuPerAsyncCall } from './cpu-per-call.js';

/** What the observer and the gateway's hooks read of an answered plain submission's Koa context. */
function answeredContext(site: { id: string }, form: { id: string }) {
  const res = Object.assign(new EventEmitter(), { statusCode: 201, writableFinished: true });
  const headers = new Map<string, string>();
  return {
    method: 'POST',
    res,
    state: { site, form } as Record<string, unknown>,
    _matchedRoute: SEND_ROUTE,
    response: { type: 'application/json' },
    body: { files: [] },
    get: (field: string) => headers.get(field.toLowerCase()) ?? '',
    set: (field: string, value: string) => headers.set(field.toLowerCase(), value),
  };
}

/** µs CPU (all threads: the stream's writes run on libuv's pool) per request's log line and metrics. */
export async function logAndMetricsMicros(seconds: number): Promise<number> {
  // The database is only asked for its pool gauges, which a non-PostgreSQL connection skips.
  const db = { driver: { getConnection: () => ({}) } } as unknown as Database;
  const metrics = createGatewayMetrics(db);
  const logger = createLogger('info');
  const countOutcome = countIntakeOutcome(metrics);
  const observe = observeRequests<ObservedContext>({
    metrics,
    logger,
    describe: describeIntakeRequest as never,
    onObserved: countOutcome as never,
  });
  const site = { id: randomUUID() };
  const form = { id: randomUUID() };
  const answered = async () => {};
  const request = async (accounted: boolean) => {
    const ctx = answeredContext(site, form);
    if (accounted) {
      await requestId(ctx as never, () => observe(ctx as never, answered));
    }
    ctx.res.emit('close');
    // The line and the samples are recorded a few microtasks after 'close'.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  // The harness alone (a context, an event-loop turn) is measured too and taken off.
  const harness = await cpuPerAsyncCall(() => request(false), seconds);
  const whole = await cpuPerAsyncCall(() => request(true), seconds);
  await flushLogs();
  return whole.micros - harness.micros;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 5);
  console.error(`log and metrics: ${(await logAndMetricsMicros(seconds)).toFixed(2)} µs CPU per request`);
}
