// `npm run bench`: what GATEWAY_PROCESSES gives on this machine (issue #16). The production entry
// (`gateway/dist/main.js`, as `npm run start:gateway` runs it) on the scratch PostgreSQL database,
// once with one process and once with two, the same plain JSON load against each. CPU time is the
// sum over the primary and its gateway processes, read from /proc (Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@intake/shared/config';
import { migrate, openDatabase } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { createServices } from '@intake/shared/services';
import { createBenchForm } from './bench-form.js';
import { stopChild } from './child-server.js';
import { measureLoad, type LoadFigure } from './load.js';
import { PLAIN_FIELDS } from './payloads.js';
import type { BenchSettings } from './request-path.js';

export interface ProcessCountFigure {
  processes: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU time of the primary and every gateway process over the measured window, per answered request. */
  cpuMicrosPerRequest: number;
  failures: number;
}

/** `npm run start:gateway`'s entry, from bench/dist (or bench/src under the tests). */
const GATEWAY_ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../gateway/dist/main.js');
/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of utime and stime in /proc. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time of `pid` and its children (the cluster's processes), in µs. */
function treeCpuMicros(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  const pids = [pid, ...(children === '' ? [] : children.split(' ').map(Number))];
  let ticks = 0;
  for (const one of pids) {
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1_000_000;
}

/** Waits until the gateway logged `count` listening lines (one per process). */
async function listening(child: ChildProcess, count: number): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`bench: the gateway exited with ${String(code)} before it listened`);
  });
  const urls = (async () => {
    let seen = 0;
    for await (const line of lines) {
      const entry = line.startsWith('{') ? (JSON.parse(line) as { msg?: string; url?: string }) : {};
      if (entry.msg === 'listening' && ++seen === count) {
        return entry.url!;
      }
    }
    throw new Error('bench: the gateway closed its output');
  })();
  const url = await Promise.race([urls, exited]);
  child.stdout!.resume();
  return url;
}

export async function measureGatewayProcesses(
  databaseUrl: string,
  settings: BenchSettings,
  progress: (step: string) => void,
): Promise<ProcessCountFigure[]> {
  const env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    GATEWAY_PORT: '0',
    DATABASE_URL: databaseUrl,
    API_KEY: randomBytes(32).toString('base64url'),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // No limit to count, so no Redis to share it: the figure is the intake path's.
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAILURES_PER_MINUTE: '0',
    BROWSER_POSTS_PER_MINUTE: '0',
    BROWSER_FORM_POSTS_PER_MINUTE: '0',
    LOG_LEVEL: 'info',
  };
  const config = parseConfig(env);
  const db = await openDatabase({ databaseUrl });
  let token: string;
  let formCode: string;
  try {
    await migrate(db);
    const { site, form } = await createBenchForm(db, { name: 'Bench pool', domain: 'pool.test' });
    token = createServices(config, db, createLogger('silent')).siteTokens.issue(site.id, site.controlCode);
    formCode = form.code;
  } finally {
    await db.close();
  }

  const figures: ProcessCountFigure[] = [];
  for (const processes of [1, 2]) {
    progress(`intake (postgresql): JSON, 3 plain fields, start:gateway with GATEWAY_PROCESSES=${processes}`);
    const cwd = await mkdtemp(path.join(tmpdir(), 'intake-bench-pool-'));
    const child = spawn(process.execPath, [GATEWAY_ENTRY], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...env,
        DATA_DIR: cwd,
        GATEWAY_PROCESSES: String(processes),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await listening(child, processes);
      let cpuAtStart = 0;
      const figure: LoadFigure = await measureLoad(
        {
          url: `${url}/api/v1/send/${formCode}`,
          headers: {
            'content-type': PLAIN_FIELDS.contentType,
            'x-key-service': env.API_KEY,
            authorization: `Bearer ${token}`,
          },
          body: PLAIN_FIELDS.body,
          connections: settings.connections,
        },
        {
          seconds: settings.seconds,
          warmupSeconds: settings.warmupSeconds,
          beforeMeasure: async () => {
            cpuAtStart = treeCpuMicros(child.pid!);
          },
        },
      );
      const cpu = treeCpuMicros(child.pid!) - cpuAtStart;
      figures.push({
        processes,
        perSecond: figure.perSecond,
        p50: figure.p50,
        p99: figure.p99,
        cpuMicrosPerRequest: figure.requests > 0 ? cpu / figure.requests : Infinity,
        failures: figure.failures,
      });
    } finally {
      await stopChild(child);
      await rm(cwd, { recursive: true, force: true });
    }
  }
  return figures;
}
