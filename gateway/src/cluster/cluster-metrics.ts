// /metrics under GATEWAY_PROCESSES > 1. Prometheus scrapes one port and reaches one of the processes
// at random, so each answer must hold the counts of all of them: the process asks the primary, which
// collects every process's registry through prom-client's AggregatorRegistry and sums them.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'intake:metrics-request';
const ANSWER = 'intake:metrics-answer';
/** prom-client gives up on a process that does not answer after 5 s; this waits a little longer. */
const ANSWER_TIMEOUT_MS = 6000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary: answers each process's request with the metrics of all of them. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) {
      return;
    }
    const answer = (fields: Partial<MetricsAnswer>) => {
      if (worker.isConnected()) {
        worker.send({ type: ANSWER, id: message.id, ...fields });
      }
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: Error) => answer({ error: error.message }),
    );
  });
}

/** In a process of the pool: reads the summed metrics; `registry` is this process's part of them. */
export function clusterMetricsReader(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener that sends this process's part to the primary.
  new AggregatorRegistry();
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isMessage<MetricsAnswer>(message, ANSWER)) {
      return;
    }
    const request = pending.get(message.id);
    pending.delete(message.id);
    if (message.text !== undefined) {
      request?.resolve(message.text);
    } else {
      request?.reject(new Error(`metrics of the gateway processes: ${message.error ?? 'no answer'}`));
    }
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('metrics of the gateway processes: the primary did not answer'));
      }, ANSWER_TIMEOUT_MS);
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          done(value);
        };
      pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
}
