import { ConfigError } from '../config/load-config.js';

export interface Stoppable {
  close(): Promise<void>;
}

/**
 * Runs a process until SIGTERM or SIGINT, then stops the servers (they drain in-flight requests,
 * bounded by SHUTDOWN_TIMEOUT_MS), closes the database, and exits 0. A start-up failure prints
 * its message (a ConfigError lists every bad variable) and exits 1.
 */
export async function runProcess(
  start: () => Promise<{ servers: Stoppable[]; close: () => Promise<void> }>,
): Promise<void> {
  let running: Awaited<ReturnType<typeof start>>;
  try {
    running = await start();
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `Start-up failed: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) {
      return;
    }
    stopping = true;
    try {
      await Promise.all(running.servers.map((server) => server.close()));
      await running.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
