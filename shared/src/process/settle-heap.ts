// One memory-reducing garbage collection once a service listens (docs/performance.md, "idle gateway").
// Loading the code grows V8's young generation to its full semi-spaces, and an idle process keeps
// them committed (about 35 MB of the gateway's RSS): V8 shrinks them only in a GC that reduces memory,
// which nothing triggers while no request comes. Under load they grow back as V8 needs them.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Runs V8's last-resort full collection (the one that also shrinks the young generation and returns
 * free pages), synchronously: tens of milliseconds, once, right after start-up. Node has no API for
 * it; `gc` is taken from a fresh context made while `--expose-gc` is on, and the flag is turned off
 * again so no later context (jsdom's window among them) gets a `gc` global.
 */
export function settleHeap(): void {
  setFlagsFromString('--expose-gc');
  let gc: Gc;
  try {
    gc = runInNewContext('gc') as Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
