import { ConfigError } from '../config/load-config.js';
import { flushLogs, type Logger } from '../logger/index.js';

export interface Stoppable {
  close(): Promise<void>;
}

type Started = {
  servers: Stoppable[];
  close: () => Promise<void>;
  /** Told `stopped` once everything is closed: the last line of a clean shutdown. */
  logger?: Logger;
};

/**
 * Runs a process until SIGTERM or SIGINT, then stops the servers (they drain in-flight requests,
 * bounded by SHUTDOWN_TIMEOUT_MS), closes the database, and exits 0. A start-up failure prints
 * its message (a ConfigError lists every bad variable) and exits 1.
 *
 * The signal handlers are installed before start-up: a library that listens for SIGTERM itself
 * would otherwise turn a signal that arrives while starting into one that is silently ignored.
 * Such a signal is honoured as soon as start-up ends.
 */
export async function runProcess(start: () => Promise<Started>): Promise<void> {
  let running: Started | undefined;
  let stopRequested = false;
  let stopping = false;

  const stop = async () => {
    if (stopping || !running) {
      return;
    }
    stopping = true;
    try {
      await Promise.all(running.servers.map((server) => server.close()));
      await running.close();
      running.logger?.info('stopped');
      // Log lines are written asynchronously. pino writes what is buffered on `exit`, but not a write
      // still in flight in libuv's thread pool: wait for every line to be out first.
      await flushLogs();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`);
      await flushLogs();
      process.exit(1);
    }
  };
  const onSignal = () => {
    stopRequested = true;
    void stop();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);

  try {
    running = await start();
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `Start-up failed: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    await flushLogs();
    process.exit(1);
  }
  if (stopRequested) {
    await stop();
  }
}
