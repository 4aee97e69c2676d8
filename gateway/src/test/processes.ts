// Built entry points run as an operator runs them, for tests of several processes together.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface StartedProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Why the compiled entry points cannot be run, or undefined when they are built. */
export function missingBuild(scripts: string[]): string | undefined {
  const missing = scripts.filter((script) => !existsSync(path.join(REPO_ROOT, script)));
  return missing.length > 0 ? `not built (${missing.join(', ')}): run npx tsc -b first` : undefined;
}

/** Runs a compiled script in `cwd` with only PATH and HOME from this process (the rest from `.env`). */
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

/** The `url` of the process's `listening` log line, once it has logged it. */
export async function listeningUrl(started: StartedProcess, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of started.output().split('\n')) {
      if (line.startsWith('{')) {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) {
          return entry.url;
        }
      }
    }
    if (Date.now() > deadline || started.child.exitCode !== null) {
      throw new Error(`the process did not start:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
