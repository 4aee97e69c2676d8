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
