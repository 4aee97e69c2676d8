// Memory of whole processes as an operator starts them: the gateway alone on PostgreSQL
// (`npm run start:gateway`) and the quick start (`npm start`: gateway, admin and worker in one
// process on the embedded PGlite, first start, so the database is created and migrated, then a
// restart in the same folder). RSS is read from /proc (Linux), the peak being VmHWM over the whole
// start; the process's children (the first start creates the database in one) are sampled too.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { migrate, openDatabase } from '@intake/shared/db';
import { stopChild } from './child-server.js';
import { receiptCost } from './receipt-cost.js';

export interface ProcessMemoryFigure {
  name: string;
  /** Seconds from spawn until every expected `listening` line was logged. */
  startSeconds: number;
  /** RSS once listening and left alone for `settleSeconds` (MB). */
  idleRssMb: number;
  /** Highest RSS since the process started (VmHWM), start-up included (MB). */
  peakRssMb: number;
  /**
   * Highest sum of the RSS of the process and its descendants until it listened, sampled every
   * 50 ms (MB): what the machine needed at once, a child's memory included.
   */
  treePeakRssMb: number;
  settleSeconds: number;
}

const MB = 1024 * 1024;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) {
    throw new Error(`bench: no ${field} for process ${pid}`);
  }
  return Number(kb) * 1024;
}

/** The process and every process below it (Linux: /proc/<pid>/task/<tid>/children). */
function processTree(pid: number): number[] {
  const found = [pid];
  for (let index = 0; index < found.length; index++) {
    try {
      for (const task of readdirSync(`/proc/${found[index]}/task`)) {
        const children = readFileSync(`/proc/${found[index]}/task/${task}/children`, 'utf8');
        found.push(...children.split(' ').filter(Boolean).map(Number));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function treeRssBytes(pid: number): number {
  return processTree(pid).reduce((sum, member) => {
    try {
      return sum + statusKb(member, 'VmRSS');
    } catch {
      return sum;
    }
  }, 0);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `entry` in `cwd` (a fresh folder, removed after, when not given), waits for a `listening`
 * line (or `readyMessage`) of each service, lets it idle, reads its memory, stops it.
 */
async function measureProcess(input: {
  name: string;
  entry: string;
  env: Record<string, string>;
  services: string[];
  settleSeconds: number;
  cwd?: string;
  readyMessage?: string;
}): Promise<ProcessMemoryFigure> {
  const readyMessage = input.readyMessage ?? 'listening';
  const cwd = input.cwd ?? (await mkdtemp(path.join(tmpdir(), 'intake-bench-start-')));
  const started = performance.now();
  const child = spawn(process.execPath, [input.entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...input.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let treePeak = 0;
  const sampler = setInterval(() => {
    treePeak = Math.max(treePeak, treeRssBytes(child.pid!));
  }, 50);
  try {
    const waiting = new Set(input.services);
    const lines = createInterface({ input: child.stdout });
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`bench: ${input.name} exited with ${String(code)} before it logged ${readyMessage}`);
    });
    const listening = (async () => {
      for await (const line of lines) {
        const entry = (() => {
          try {
            return JSON.parse(line) as { msg?: string; service?: string };
          } catch {
            return {};
          }
        })();
        if (entry.msg === readyMessage && entry.service !== undefined) {
          waiting.delete(entry.service);
          if (waiting.size === 0) {
            return;
          }
        }
      }
    })();
    await Promise.race([listening, exited]);
    clearInterval(sampler);
    const startSeconds = (performance.now() - started) / 1000;
    // Keep reading so a full pipe never blocks the process.
    child.stdout.resume();
    await delay(input.settleSeconds * 1000);
    const pid = child.pid!;
    return {
      name: input.name,
      startSeconds,
      idleRssMb: statusKb(pid, 'VmRSS') / MB,
      peakRssMb: statusKb(pid, 'VmHWM') / MB,
      treePeakRssMb: Math.max(treePeak, statusKb(pid, 'VmHWM')) / MB,
      settleSeconds: input.settleSeconds,
    };
  } finally {
    clearInterval(sampler);
    await stopChild(child);
    if (input.cwd === undefined) {
      await rm(cwd, { recursive: true, force: true });
    }
  }
}

const secrets = () => ({
  API_KEY: randomBytes(32).toString('base64url'),
  JWT_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
});

/** The gateway as its own process on PostgreSQL (the database migrated first, as `npm run migrate` would). */
export async function idleGatewayOnPostgres(databaseUrl: string, settleSeconds = 5): Promise<ProcessMemoryFigure> {
  const db = await openDatabase({ databaseUrl });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return measureProcess({
    name: 'gateway on PostgreSQL (start:gateway)',
    entry: path.join(ROOT, 'gateway/dist/main.js'),
    env: { NODE_ENV: 'production', HOST: '127.0.0.1', GATEWAY_PORT: '0', DATABASE_URL: databaseUrl, ...secrets() },
    services: ['gateway'],
    settleSeconds,
  });
}

/**
 * The floor under the idle gateway: its code loaded and its database opened, nothing started
 * (servers/gateway-loaded.ts), on the same database, read as the gateway is.
 */
export async function loadedGatewayOnPostgres(databaseUrl: string, settleSeconds = 5): Promise<ProcessMemoryFigure> {
  return measureProcess({
    name: 'gateway code loaded, database opened, nothing started',
    entry: path.join(ROOT, 'bench/dist/servers/gateway-loaded.js'),
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, ...secrets() },
    services: ['gateway'],
    settleSeconds,
    readyMessage: 'loaded',
  });
}

/**
 * `npm start` on a first run (a fresh folder, `.env` generated, PGlite created and migrated), then
 * started again in the same folder (the database is there).
 */
export async function quickStartOnPglite(
  settleSeconds = 5,
): Promise<{ first: ProcessMemoryFigure; restart: ProcessMemoryFigure }> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'intake-bench-start-'));
  const run = (name: string) =>
    measureProcess({
      name,
      entry: path.join(ROOT, 'scripts/start.js'),
      env: { HOST: '127.0.0.1', GATEWAY_PORT: '0', ADMIN_PORT: '0' },
      services: ['gateway', 'admin'],
      settleSeconds,
      cwd,
    });
  try {
    const first = await run('npm start on PGlite (first start)');
    const restart = await run('npm start on PGlite (restart)');
    return { first, restart };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

const mb = (value: number) => `${value.toFixed(0)} MB`;

/** The quick start's rows: idle and peak, on a first start and on a restart. */
export function quickStartTargets(quick: {
  first: ProcessMemoryFigure;
  restart: ProcessMemoryFigure;
}): ProcessTarget[] {
  return [quick.first, quick.restart].flatMap((figure) => [
    {
      case: `${figure.name}, idle`,
      measured: `${mb(figure.idleRssMb)} after ${figure.settleSeconds} s (listening after ${figure.startSeconds.toFixed(1)} s)`,
      target: 'RSS ≤ 300 MB',
      met: figure.idleRssMb <= 300,
      figures: { ...figure },
    },
    {
      case: `${figure.name}, peak`,
      measured: `${mb(figure.peakRssMb)}; with its child processes, at most ${mb(figure.treePeakRssMb)} at once`,
      target: 'peak RSS ≤ 500 MB',
      met: figure.peakRssMb <= 500,
      figures: { ...figure },
    },
  ]);
}

/** One target that is not a request-path row: what was measured, against what, met or not. */
export interface ProcessTarget {
  case: string;
  measured: string;
  target: string;
  met: boolean;
  figures: Record<string, number | string>;
}

/**
 * The targets measured outside the load runs: the receipt's CPU per form (in this process), the idle
 * gateway on PostgreSQL, and the quick start on PGlite. The sanitiser's is measured apart
 * (sanitiser-cost.ts).
 */
export async function measureProcessTargets(
  databaseUrl: string,
  progress: (step: string) => void,
): Promise<ProcessTarget[]> {
  progress('receipt CPU per plain form');
  const receipt = await receiptCost(3);
  progress('idle gateway on PostgreSQL, and its code alone');
  const gateway = await idleGatewayOnPostgres(databaseUrl);
  const loaded = await loadedGatewayOnPostgres(databaseUrl);
  progress('npm start on PGlite');
  const quick = await quickStartOnPglite();
  return [
    {
      case: 'receipt of a plain form (digest, JSON, Ed25519 signature)',
      measured:
        `${receipt.receiptMicros.toFixed(0)} µs CPU per receipt, ${receipt.claimsMicros.toFixed(0)} µs of it on the ` +
        `event loop for the digest; ${(receipt.largeClaimsMicros / 1000).toFixed(1)} ms for a 1 MiB body's digest`,
      target: '≤ 100 µs',
      met: receipt.receiptMicros <= 100,
      figures: { ...receipt },
    },
    {
      case: gateway.name,
      measured:
        `${mb(gateway.idleRssMb)} idle after ${gateway.settleSeconds} s (peak ${mb(gateway.peakRssMb)}); ` +
        `floor, ${loaded.name}: ${mb(loaded.idleRssMb)}`,
      target: 'RSS ≤ 100 MB',
      met: gateway.idleRssMb <= 100,
      figures: { ...gateway, floorIdleRssMb: loaded.idleRssMb },
    },
    ...quickStartTargets(quick),
  ];
}
