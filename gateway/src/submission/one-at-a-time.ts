// Runs work with the same key one after another within this process. The duplicate filter needs
// its look-up and write to be one step for identical submissions in flight at once: across
// processes an advisory lock does that on PostgreSQL, but the embedded PGlite has one connection,
// on which a session lock never waits and concurrent transactions are not kept apart.
const queues = new Map<string, Promise<void>>();

/** `work()` once every earlier call with `key` has settled; its own result or error. */
export function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const result = previous.then(work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) {
      queues.delete(key);
    }
  });
  return result;
}
