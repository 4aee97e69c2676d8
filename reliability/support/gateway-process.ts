// The gateway as operators run it: `gateway/dist/main.js` in its own process (the build comes first,
// as `npm run test:reliability` does), configured through the environment, found by the JSON
// `listening` line it logs.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

export async function spawnGateway(
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [path.join(root, 'gateway/dist/main.js')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of output.split('\n')) {
      if (line.startsWith('{')) {
        const entry = JSON.parse(line) as { msg?: string; service?: string; url?: string };
        if (entry.msg === 'listening' && entry.service === 'gateway' && entry.url) {
          return { child, url: entry.url, output: () => output, exited };
        }
      }
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
