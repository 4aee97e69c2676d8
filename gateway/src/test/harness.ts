import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@intake/shared/config';
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import type { RunningServer } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import { createTestServices } from '@intake/shared/test';
import { startGateway } from '../index.js';

export type TestServices = Awaited<ReturnType<typeof createTestServices>>;

/** A listening gateway over a fresh test database (one per test file). */
export async function startTestGateway(env: Record<string, string> = {}): Promise<{
  services: TestServices;
  gateway: RunningServer;
  close(): Promise<void>;
}> {
  const services = await createTestServices(env);
  const gateway = await startGateway(services);
  return {
    services,
    gateway,
    close: async () => {
      await gateway.close();
      await services.close();
    },
  };
}

/** A second gateway on the same database and storage with some limits changed. */
export function withConfig(services: Services, change: (config: Config) => Config): Services {
  return { ...services, config: change(services.config) };
}

export interface SendOptions {
  apiKey?: string | null;
  token?: string | null;
  authorization?: string;
  body?: BodyInit;
  json?: unknown;
  headers?: Record<string, string>;
}

/** POSTs to the intake route like a site backend would. */
export function send(baseUrl: string, code: string, options: SendOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== null && options.apiKey !== undefined) {
    headers['X-KEY-SERVICE'] = options.apiKey;
  }
  if (options.authorization !== undefined) {
    headers.Authorization = options.authorization;
  } else if (options.token) {
    headers.Authorization = `Bearer ${options.token}`;
  }
  let body = options.body;
  if (options.json !== undefined) {
    body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  return fetch(`${baseUrl}/api/v1/send/${code}`, { method: 'POST', headers, body: body ?? null });
}

async function countFiles(dir: string): Promise<number> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
}

/** Rows and files that a request could leave behind: compared before and after a refusal. */
export async function footprint(
  services: Services,
): Promise<{ submissions: number; files: number; objects: number; uploads: number }> {
  const em = services.db.em.fork();
  return {
    submissions: await em.count(SubmissionSchema, {}),
    files: await em.count(StoredFileSchema, {}),
    objects: await countFiles(path.join(services.config.dataDir, 'files')),
    uploads: await countFiles(path.join(services.config.dataDir, 'tmp')),
  };
}
