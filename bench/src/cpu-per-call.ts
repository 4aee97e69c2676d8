// CPU time (user + system, all threads) of this process per call of some work, over a fixed wall
// time after an unmeasured warm-up (the JIT, a jsdom window): for costs timed apart from the load runs.

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function run(work: () => void, wallSeconds: number): { calls: number; micros: number } {
  const deadline = performance.now() + wallSeconds * 1000;
  const cpuAtStart = cpuMicros();
  let calls = 0;
  while (performance.now() < deadline) {
    // 100 per clock read: the clock costs little beside the work, but nothing is free.
    for (let i = 0; i < 100; i++) {
      work();
    }
    calls += 100;
  }
  return { calls, micros: (cpuMicros() - cpuAtStart) / calls };
}

/** CPU µs per call of `work` over `seconds`, after one unmeasured second; and how many calls that was. */
export function cpuPerCall(work: () => void, seconds: number): { calls: number; micros: number } {
  run(work, 1);
  return run(work, seconds);
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
