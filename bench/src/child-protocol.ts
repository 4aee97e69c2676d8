// What a bench server child and the bench runner say to each other over the IPC channel.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** Child → runner, once listening: where it is and what a request needs (tokens, form code). */
export interface ReadyMessage {
  type: 'ready';
  url: string;
  details: Record<string, string>;
}

/**
 * Runner → child: report memory (optionally after a full GC, optionally starting a new peak
 * window), or stop.
 */
export type RunnerMessage =
  | { type: 'memory'; id: number; gc: boolean; resetPeak: boolean }
  | { type: 'profile'; id: number; action: 'start' | 'stop' }
  | { type: 'stop' };

/**
 * Child → runner: the profiler started (`profile` absent) or stopped, with the V8 CPU profile of
 * the main thread since the start.
 */
export interface ProfileMessage {
  type: 'profile';
  id: number;
  profile?: unknown;
}

/** Child → runner: the answer to a memory request. Bytes. */
export interface MemoryMessage {
  type: 'memory';
  id: number;
  rss: number;
  /** Peak resident set size since the last reset (Linux), or since the process started. */
  peakRss: number;
  heapUsed: number;
  /** CPU time (user + system) the process used since it started, in microseconds. */
  cpuMicros: number;
  /** The same, of the main thread alone (the one a CPU profile samples). */
  mainThreadCpuMicros: number;
  /** Full (mark-compact) garbage collections since the server started, and their main-thread pauses. */
  fullCollections: number;
  fullCollectionPauseMicros: number;
}

/**
 * Counts the process's full garbage collections and adds up the time each held the main thread
 * (perf_hooks' `gc` entries: their duration is that pause; the concurrent marking before it runs on
 * V8's threads and shows in the CPU time of the other threads).
 */
function watchFullCollections(): { count: number; pauseMicros: number } {
  const totals = { count: 0, pauseMicros: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        totals.count += 1;
        totals.pauseMicros += entry.duration * 1000;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  return totals;
}

/**
 * Linux keeps the peak RSS (VmHWM) in /proc and resets it on request, so a case can be measured
 * apart from the start-up (PGlite's peaks at over 1 GB). Elsewhere: the peak since start.
 */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the peak stays the one since start.
  }
}

function peakRss(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) {
      return Number(kb) * 1024;
    }
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function mainThreadCpuMicros(): number {
  const { user, system } = process.threadCpuUsage();
  return user + system;
}

/** node:inspector's sampling profiler in this process, started and stopped by the runner. */
function profiler(): (action: 'start' | 'stop') => Promise<unknown> {
  let session: Session | undefined;
  return async (action) => {
    if (action === 'start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      // 250 µs: a few thousand samples in a short window, at a cost the bench's figures never see
      // (the profiled window is not a measured one).
      await session.post('Profiler.setSamplingInterval', { interval: 250 });
      await session.post('Profiler.start');
      return undefined;
    }
    const { profile } = await session!.post('Profiler.stop');
    session!.disconnect();
    session = undefined;
    return profile;
  };
}

export interface ServedChild {
  url: string;
  details?: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The child side: start the server, announce it, answer memory requests, stop on request (or when
 * the runner goes away, so no server outlives a crashed bench).
 */
export async function serveInChild(start: () => Promise<ServedChild>): Promise<void> {
  if (!process.send) {
    throw new Error('bench server: run me through the bench runner (no IPC channel)');
  }
  const served = await start();
  let stopping = false;
  const stop = async () => {
    if (stopping) {
      return;
    }
    stopping = true;
    await served.close();
    // Whatever handle a library left open, a stopped bench server must not linger.
    process.exit(0);
  };
  const profile = profiler();
  const collections = watchFullCollections();
  process.on('message', (message: RunnerMessage) => {
    if (message.type === 'stop') {
      void stop();
      return;
    }
    if (message.type === 'profile') {
      void profile(message.action).then((result) => {
        const reply: ProfileMessage = { type: 'profile', id: message.id, ...(result ? { profile: result } : {}) };
        process.send?.(reply);
      });
      return;
    }
    if (message.gc) {
      (globalThis as { gc?: () => void }).gc?.();
    }
    const peak = peakRss();
    if (message.resetPeak) {
      resetPeak();
    }
    const reply: MemoryMessage = {
      type: 'memory',
      id: message.id,
      rss: process.memoryUsage.rss(),
      peakRss: peak,
      heapUsed: process.memoryUsage().heapUsed,
      cpuMicros: cpuMicros(),
      mainThreadCpuMicros: mainThreadCpuMicros(),
      fullCollections: collections.count,
      fullCollectionPauseMicros: collections.pauseMicros,
    };
    process.send?.(reply);
  });
  process.on('disconnect', () => void stop());
  const ready: ReadyMessage = { type: 'ready', url: served.url, details: served.details ?? {} };
  process.send(ready);
}
