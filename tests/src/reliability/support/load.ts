// A bounded pool of concurrent tasks: `count` tasks, at most `concurrency` running at once, each
// result kept at its index. The load runs are bounded in count, so they end by themselves.

export async function runPool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, () => worker()));
  return results;
}

/** Milliseconds since `start`, rounded, for the figures a run prints. */
export function elapsedMs(start: number): number {
  return Math.round(performance.now() - start);
}
