// Costs timed apart in a fresh process of their own: timed in the bench's process after the load
// runs, they carry the garbage collection of its heap and whatever state the earlier parts left
// (upload-costs-process.ts, sanitiser-cost-process.ts). The child sends one message and exits.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/**
 * Forks `entry` (a module URL beside the caller) with `args` and resolves with the one message it
 * sends. The child is always the compiled module: from the sources (a test), bench/dist's.
 */
export async function measureInFreshProcess<T>(entry: URL, args: string[], name: string): Promise<T> {
  const compiled = fileURLToPath(entry).replace(/([\\/]bench[\\/])src([\\/][^\\/]+)\.[jt]s$/, '$1dist$2.js');
  const child = fork(compiled, args, { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const [message] = (await Promise.race([
    once(child, 'message'),
    exited.then(([code]) => Promise.reject(new Error(`bench: ${name} exited with ${String(code)}`))),
  ])) as [T];
  await exited;
  return message;
}
