import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The process-wide stdout stream holds lines briefly and writes them together (index.ts): a child
// process logs through it, as a service does, and the test reads the child's real stdout.
const loggerModule = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/logger/index.js'),
).href;

/** Runs `body` in a child with `logger` made; resolves with each stdout line and the ms it came at. */
function runChild(body: string): Promise<{ lines: { msg: string; n?: number; at: number }[]; code: number | null }> {
  const script = `import { createLogger, flushLogs } from ${JSON.stringify(loggerModule)};
const logger = createLogger('info');
${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = performance.now();
  const lines: { msg: string; n?: number; at: number }[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop()!;
    for (const line of complete) {
      lines.push({ ...(JSON.parse(line) as { msg: string; n?: number }), at: performance.now() - started });
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ lines, code })));
}

describe('the stdout stream of the services', () => {
  it('writes every held line, in order, when the process exits without flushing', async () => {
    const { lines, code } = await runChild(`
for (let n = 0; n < 5000; n++) logger.info({ n }, 'request');
logger.info('last');
process.exit(3);`);
    expect(code).toBe(3);
    expect(lines).toHaveLength(5001);
    expect(lines.slice(0, 5000).every((line, n) => line.n === n)).toBe(true);
    expect(lines.at(-1)!.msg).toBe('last');
  });

  it('writes a lone line while the process keeps running, not only at its exit', async () => {
    const { lines } = await runChild(`
logger.info('alone');
setTimeout(() => { logger.info('exiting'); process.exit(0); }, 3000);`);
    expect(lines.map((line) => line.msg)).toEqual(['alone', 'exiting']);
    // Held for at most LOG_HOLD_MS (10 ms): it comes long before the exit, even on a loaded machine.
    expect(lines[1]!.at - lines[0]!.at).toBeGreaterThan(1500);
  });

  it('writes what is held before flushLogs resolves, then lines after it at once', async () => {
    const { lines } = await runChild(`
logger.info('held');
await flushLogs();
logger.info('straggler');
setTimeout(() => process.exit(0), 500);`);
    expect(lines.map((line) => line.msg)).toEqual(['held', 'straggler']);
  });
});
