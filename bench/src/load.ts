// The load generator of `npm run bench`: autocannon against a loopback URL for a bounded time,
// after an unmeasured warm-up (JIT, connection pools). The server under test always runs in another
// process (see child-server.ts), so the generator never competes with it for one event loop.
import http from 'node:http';
import autocannon from 'autocannon';

export const LOAD_GENERATOR = 'autocannon';

export interface LoadRequest {
  /** `http://127.0.0.1:port/path`: loopback only. */
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
  connections: number;
}

export interface LoadFigure {
  /** Answers with the expected status per second over the measured window. */
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Request body megabytes (2^20) per second, for uploads. */
  mbPerSecond: number;
  requests: number;
  seconds: number;
  /** Answers with another status, connection errors and timeouts: any of them spoils the figure. */
  failures: number;
  /** The first unexpected statuses seen, for the report. */
  unexpectedStatuses: Record<string, number>;
  /**
   * CPU time (user + system) of the server process over the measured window, per answered request,
   * in µs (set when the server runs as a bench child, see request-path.ts).
   */
  cpuMicrosPerRequest?: number;
  /** The same, of the server's main thread alone. */
  mainThreadCpuMicrosPerRequest?: number;
  /** The server's full garbage collections per request, and their main-thread pauses (µs). */
  fullCollectionsPerRequest?: number;
  fullCollectionPauseMicrosPerRequest?: number;
}

export interface LoadOptions {
  seconds: number;
  warmupSeconds: number;
  /** A fixed number of requests instead of a duration (the RSS soak). */
  amount?: number;
  expectedStatus?: number;
  /** Called after the warm-up, just before the measured run. */
  beforeMeasure?: () => Promise<void>;
  /** Called every second while the measured run goes on. */
  onTick?: (completed: number) => void;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`bench: the load generator only targets loopback, not ${host}`);
  }
}

function fire(
  request: LoadRequest,
  options: { duration?: number; amount?: number },
  onTick?: (completed: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        connections: request.connections,
        pipelining: 1,
        // A 10 MB upload among 20 may legitimately take seconds on a busy machine.
        timeout: 60,
        ...options,
      },
      (error, result) => (error ? reject(error as Error) : resolve(result)),
    );
    let completed = 0;
    instance.on('response', () => {
      completed += 1;
    });
    if (onTick) {
      instance.on('tick', () => onTick(completed));
    }
  });
}

/** Warm-up, then one measured run; the figure counts only answers with the expected status. */
export async function measureLoad(request: LoadRequest, options: LoadOptions): Promise<LoadFigure> {
  assertLoopback(request.url);
  if (options.warmupSeconds > 0) {
    await fire(request, { duration: options.warmupSeconds });
  }
  await options.beforeMeasure?.();
  const result = await fire(
    request,
    options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds },
    options.onTick,
  );
  const expected = String(options.expectedStatus ?? 201);
  const stats = result.statusCodeStats ?? {};
  const good = stats[expected as `${number}`]?.count ?? 0;
  const unexpectedStatuses: Record<string, number> = {};
  let answered = 0;
  for (const [status, { count = 0 }] of Object.entries(stats)) {
    answered += count;
    if (status !== expected) {
      unexpectedStatuses[status] = count;
    }
  }
  const bodyBytes = typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.length;
  return {
    perSecond: good / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mbPerSecond: (good * bodyBytes) / 1024 / 1024 / result.duration,
    requests: answered,
    seconds: result.duration,
    failures: answered - good + result.errors,
    unexpectedStatuses,
  };
}

/** The value below which a share `q` (0 to 1) of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return NaN;
  }
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LoneFigure {
  /** Milliseconds, from the first byte sent to the whole answer read. */
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

/**
 * A lone client on an idle server: `count` requests one after another on one kept-alive
 * connection, each sent when the previous answer is read, timed to the microsecond (autocannon's
 * latencies are whole milliseconds). The first `warmup` are not counted.
 */
export async function measureLone(request: LoadRequest, count: number, warmup = 20): Promise<LoneFigure> {
  assertLoopback(request.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const sent = http.request(
        request.url,
        { method: 'POST', agent, headers: { ...request.headers, 'content-length': String(body.length) } },
        (answer) => {
          answer.resume();
          answer.on('end', () =>
            resolve(answer.statusCode === 201 ? Number(process.hrtime.bigint() - started) / 1e6 : -1),
          );
          answer.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  const latencies: number[] = [];
  let failures = 0;
  try {
    for (let index = 0; index < warmup + count; index += 1) {
      const ms = await once().catch(() => -1);
      if (index < warmup) {
        continue;
      }
      if (ms < 0) {
        failures += 1;
      } else {
        latencies.push(ms);
      }
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), requests: latencies.length, failures };
}
