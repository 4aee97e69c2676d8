// Built entry points run as an operator runs them (`node <script>` in a directory of its own, with the
// environment it is given), for tests of the real processes. They run the compiled code: build first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface StartedProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far, interleaved as it arrived. */
  output(): string;
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** One line of the process's JSON log. */
export type LogEntry = Record<string, unknown>;

/** Why the compiled entry points cannot be run, or undefined when they are built. */
export function missingBuild(scripts: string[]): string | undefined {
  const missing = scripts.filter((script) => !existsSync(path.join(REPO_ROOT, script)));
  return missing.length > 0 ? `not built (${missing.join(', ')}): run npx tsc -b first` : undefined;
}

/**
 * Runs `script` (relative to the repository root) with node in `cwd`, with only PATH and HOME from
 * this process and `env` on top: the rest of its configuration comes from a `.env` in `cwd`.
 */
export function runScript(script: string, cwd: string, env: Record<string, string> = {}): StartedProcess {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, script)], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The complete JSON lines logged so far (a line still being written is left for the next look). */
function logEntries(output: string): LogEntry[] {
  const lines = output.split('\n').slice(0, -1);
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogEntry);
}

/**
 * The first JSON log line that `match` accepts, waiting for it. Fails, with everything the process
 * wrote, when it exits first or `timeoutMs` passes.
 */
export async function waitForLogEntry(
  started: StartedProcess,
  match: (entry: LogEntry) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<LogEntry> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = logEntries(started.output()).find(match);
    if (found) {
      return found;
    }
    const { exitCode, signalCode } = started.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`the process exited (${exitCode ?? signalCode}) before logging ${what}:\n${started.output()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`the process did not log ${what} within ${timeoutMs} ms:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The `url` of the `listening` line of `service`, or of any service when none is named. */
export async function listeningUrl(started: StartedProcess, service?: string, timeoutMs = 60_000): Promise<string> {
  const entry = await waitForLogEntry(
    started,
    (line) => line.msg === 'listening' && typeof line.url === 'string' && (!service || line.service === service),
    `"listening"${service ? ` for ${service}` : ''}`,
    timeoutMs,
  );
  return entry.url as string;
}

/** The listening URL of each of `services` (all in one process), by service name. */
export async function listeningUrls<Service extends string>(
  started: StartedProcess,
  services: Service[],
  timeoutMs = 60_000,
): Promise<Record<Service, string>> {
  const urls = await Promise.all(services.map((service) => listeningUrl(started, service, timeoutMs)));
  return Object.fromEntries(services.map((service, index) => [service, urls[index]!])) as Record<Service, string>;
}

/** Sends `signal` (SIGKILL unless told) if the process still runs; resolves with its exit code. */
export async function stopProcess(started: StartedProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
  if (started.child.exitCode === null && started.child.signalCode === null) {
    started.child.kill(signal);
  }
  return started.exited;
}

/** Kills every process still running and waits for them all: for `finally` and `afterAll`. */
export async function killProcesses(processes: Iterable<StartedProcess | undefined>): Promise<void> {
  await Promise.all([...processes].map((started) => started && stopProcess(started)));
}
