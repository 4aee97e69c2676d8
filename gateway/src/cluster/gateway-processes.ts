// `npm run start:gateway` with GATEWAY_PROCESSES > 1: node:cluster runs that many gateway processes
// on one port; the primary accepts the connections and hands them to the processes in turn. The
// primary opens no database and loads no gateway code. It starts the processes, starts another when
// one dies, answers their /metrics requests with the sum of all of them, and on SIGTERM or SIGINT
// stops them all (each drains its requests as a single gateway does) and exits once they have.
import cluster, { type Worker } from 'node:cluster';
import { flushLogs, type Logger } from '@intake/shared/logger';
import { serveClusterMetrics } from './cluster-metrics.js';

/** A process that died is replaced after this pause, so a crash loop does not spin the CPU. */
const RESTART_DELAY_MS = 1000;

export async function runGatewayProcesses(count: number, logger: Logger): Promise<void> {
  let stopping = false;
  let failedToStart = false;
  const listened = new Set<Worker>();
  serveClusterMetrics();

  const finishWhenAllExited = async () => {
    if (Object.keys(cluster.workers ?? {}).length > 0) {
      return;
    }
    logger.info('stopped');
    await flushLogs();
    process.exit(failedToStart ? 1 : 0);
  };
  const stop = () => {
    if (stopping) {
      return;
    }
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) {
      worker?.process.kill('SIGTERM');
    }
    void finishWhenAllExited();
  };

  cluster.on('listening', (worker) => listened.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    const hadStarted = listened.delete(worker);
    if (stopping) {
      void finishWhenAllExited();
      return;
    }
    if (!hadStarted) {
      // What stopped one process from starting (the database, a port) stops the others too: say it
      // once (the process printed why) and end, rather than restart it forever.
      logger.error({ code, signal }, 'a gateway process failed to start; stopping the others');
      failedToStart = true;
      stop();
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'a gateway process exited; starting another');
    setTimeout(() => stopping || cluster.fork(), RESTART_DELAY_MS);
  });
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  logger.info({ processes: count }, 'starting gateway processes');
  for (let started = 0; started < count; started++) {
    cluster.fork();
  }
}
