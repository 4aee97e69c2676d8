import { pingDatabase } from '../db/orm.js';
import type { Services } from '../services/index.js';

/** What the answer needs of a Koa context (typed here so the kernel does not depend on Koa). */
export interface ReadinessContext {
  status: number;
  body: unknown;
  set(field: string, value: string): void;
}

/**
 * GET /readyz of both services: 200 when the database and the storage answer, else 503 with
 * Retry-After. `more` adds a service's own lines to `checks` (they never make it unready).
 */
export async function answerReadiness(
  ctx: ReadinessContext,
  services: Pick<Services, 'db' | 'storage'>,
  more: Record<string, string> = {},
): Promise<void> {
  const [database, storage] = await Promise.all([pingDatabase(services.db), services.storage.ping()]);
  const ready = database && storage;
  ctx.status = ready ? 200 : 503;
  if (!ready) {
    ctx.set('Retry-After', '5');
  }
  ctx.body = {
    status: ready ? 'ok' : 'unavailable',
    checks: { database: database ? 'ok' : 'down', storage: storage ? 'ok' : 'down', ...more },
  };
}
