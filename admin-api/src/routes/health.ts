import { pingDatabase, type Services } from '@intake/shared';
import type { AdminKoaContext } from '../context.js';

/** Liveness: the process answers. */
export async function healthz(ctx: AdminKoaContext): Promise<void> {
  ctx.body = { status: 'ok' };
}

/** Readiness: the database answers, and so does the storage that downloads read from. */
export function readyz(services: Pick<Services, 'db' | 'storage'>) {
  return async (ctx: AdminKoaContext): Promise<void> => {
    const [database, storage] = await Promise.all([pingDatabase(services.db), services.storage.ping()]);
    const ready = database && storage;
    ctx.status = ready ? 200 : 503;
    if (!ready) {
      ctx.set('Retry-After', '5');
    }
    ctx.body = {
      status: ready ? 'ok' : 'unavailable',
      checks: { database: database ? 'ok' : 'down', storage: storage ? 'ok' : 'down' },
    };
  };
}
