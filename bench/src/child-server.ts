// The runner side of a bench server: each server under test runs in its own Node process, started
// from its compiled entry point, so the load generator and the server never share an event loop.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryMessage, ProfileMessage, ReadyMessage, RunnerMessage } from './child-protocol.js';

export interface BenchServer {
  url: string;
  details: Record<string, string>;
  pid: number;
  /**
   * Resident set size now, its peak since the last `resetPeak` (Linux; else since start), and heap in
   * use (after a full GC when asked), and the CPU time (user + system, µs) it has used so far.
   */
  memory(options?: { gc?: boolean; resetPeak?: boolean }): Promise<Omit<MemoryMessage, 'type' | 'id'>>;
  /** Starts node:inspector's CPU profiler in the server process (main thread). */
  startProfile(): Promise<void>;
  /** Stops it: the V8 CPU profile since the start. */
  stopProfile(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The child's whole environment beside PATH and HOME: nothing leaks in from the runner's. */
  env?: Record<string, string>;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  execArgv?: string[];
  startTimeoutMs?: number;
}

/**
 * `servers/<name>.js` of the compiled bench. Under jest this module runs from `src/`, but a server
 * process always runs the build (`npx tsc -b`), as in every test that spawns one.
 */
export function serverEntry(name: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = here.replace(/([\\/]bench[\\/])src$/, '$1dist');
  return path.join(compiled, 'servers', `${name}.js`);
}

function waitForReady(child: ChildProcess, timeoutMs: number): Promise<ReadyMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`bench server did not start within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: ReadyMessage) => {
      if (message.type === 'ready') {
        finish(undefined, message);
      }
    };
    const onExit = (code: number | null) => finish(new Error(`bench server exited with ${code} before it was ready`));
    function finish(error: Error | undefined, message?: ReadyMessage) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else {
        resolve(message!);
      }
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function startBenchServer(entry: string, options: StartOptions = {}): Promise<BenchServer> {
  const child = fork(entry, [], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    execArgv: ['--expose-gc', ...(options.execArgv ?? [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await waitForReady(child, options.startTimeoutMs ?? 60_000);
  let nextId = 0;
  const send = (message: RunnerMessage) => child.send(message);
  const askProfile = (action: 'start' | 'stop') =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      const onMessage = (message: ProfileMessage) => {
        if (message.type === 'profile' && message.id === id) {
          child.off('message', onMessage);
          resolve(message.profile);
        }
      };
      child.on('message', onMessage);
      send({ type: 'profile', id, action });
    });
  return {
    url: ready.url,
    details: ready.details,
    pid: child.pid!,
    memory: ({ gc = false, resetPeak = false } = {}) =>
      new Promise((resolve) => {
        const id = ++nextId;
        const onMessage = (message: MemoryMessage) => {
          if (message.type === 'memory' && message.id === id) {
            child.off('message', onMessage);
            const { type: _type, id: _id, ...figures } = message;
            resolve(figures);
          }
        };
        child.on('message', onMessage);
        send({ type: 'memory', id, gc, resetPeak });
      }),
    startProfile: async () => {
      await askProfile('start');
    },
    stopProfile: () => askProfile('stop'),
    stop: () => stopChild(child, () => send({ type: 'stop' })),
  };
}

/** Asks a child to stop (SIGTERM unless `ask` says otherwise) and waits for it; SIGKILL after 15 s. */
export async function stopChild(child: ChildProcess, ask: () => void = () => child.kill('SIGTERM')): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = once(child, 'exit');
  ask();
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
