// CPU time (user + system, all threads) of this process per call of some work, over a fixed wall
// time after an unmeasured warm-up (the JIT, a jsdom window): for costs timed apart from the load runs.

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function mainThreadCpuMicros(): number {
  const { user, system } = process.threadCpuUsage();
  return user + system;
}

interface Timed {
  calls: number;
  /** CPU µs per call, all threads. */
  micros: number;
  /** CPU µs per call of the main thread alone (the rest is V8's helpers: garbage collection). */
  mainThreadMicros: number;
  /** Wall µs the calls took. */
  wallMicros: number;
}

function run(work: () => void, wallSeconds: number): Timed {
  const startedAt = performance.now();
  const deadline = startedAt + wallSeconds * 1000;
  const cpuAtStart = cpuMicros();
  const mainAtStart = mainThreadCpuMicros();
  let calls = 0;
  while (performance.now() < deadline) {
    // 100 per clock read: the clock costs little beside the work, but nothing is free.
    for (let i = 0; i < 100; i++) {
      work();
    }
    calls += 100;
  }
  return {
    calls,
    micros: (cpuMicros() - cpuAtStart) / calls,
    mainThreadMicros: (mainThreadCpuMicros() - mainAtStart) / calls,
    wallMicros: (performance.now() - startedAt) * 1000,
  };
}

/** CPU µs per call of `work` over `seconds`, after one unmeasured second; and how many calls that was. */
export function cpuPerCall(work: () => void, seconds: number): { calls: number; micros: number } {
  run(work, 1);
  const { calls, micros } = run(work, seconds);
  return { calls, micros };
}

/** What cpuPerCallAlternated measured of one work over all its rounds. */
export interface AlternatedFigure {
  calls: number;
  /** CPU µs per call, all threads. */
  micros: number;
  /** CPU µs per call of the main thread alone. */
  mainThreadMicros: number;
  /**
   * The main thread's CPU over the wall time of the calls: near 1 when the work had a core to
   * itself, lower when other processes took turns on it (and its CPU per call reads higher).
   */
  mainThreadShare: number;
}

/**
 * CPU µs per call of each of `works`, timed in turn: one unmeasured second each, then `rounds` rounds
 * in which each runs for `seconds / rounds`, added up over the rounds. A change in the machine's load
 * falls on every work alike, so their differences mean something.
 */
export function cpuPerCallAlternated<K extends string>(
  works: Record<K, () => void>,
  seconds: number,
  rounds: number,
): Record<K, AlternatedFigure> {
  const keys = Object.keys(works) as K[];
  for (const key of keys) {
    run(works[key], 1);
  }
  const totals = new Map(keys.map((key) => [key, { calls: 0, cpu: 0, mainThread: 0, wall: 0 }]));
  for (let round = 0; round < rounds; round++) {
    for (const key of keys) {
      const timed = run(works[key], seconds / rounds);
      const total = totals.get(key)!;
      total.calls += timed.calls;
      total.cpu += timed.micros * timed.calls;
      total.mainThread += timed.mainThreadMicros * timed.calls;
      total.wall += timed.wallMicros;
    }
  }
  return Object.fromEntries(
    [...totals].map(([key, total]) => [
      key,
      {
        calls: total.calls,
        micros: total.cpu / total.calls,
        mainThreadMicros: total.mainThread / total.calls,
        mainThreadShare: total.mainThread / total.wall,
      },
    ]),
  ) as Record<K, AlternatedFigure>;
}

/**
 * CPU µs per call of asynchronous `work`, one call after another, over `seconds` after one
 * unmeasured second. The process's CPU covers libuv's threads too: file-system work counts where
 * it is done.
 */
export async function cpuPerAsyncCall(
  work: () => Promise<unknown>,
  seconds: number,
): Promise<{ calls: number; micros: number }> {
  const runFor = async (wallSeconds: number) => {
    const deadline = performance.now() + wallSeconds * 1000;
    const cpuAtStart = cpuMicros();
    let calls = 0;
    while (performance.now() < deadline) {
      await work();
      calls++;
    }
    return { calls, micros: (cpuMicros() - cpuAtStart) / calls };
  };
  await runFor(1);
  return runFor(seconds);
}
