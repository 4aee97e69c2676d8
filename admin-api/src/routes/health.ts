import { pingDatabase, type Database } from '@intake/shared';
import type { AdminKoaContext } from '../context.js';

/** Liveness: the process answers. */
export async function healthz(ctx: AdminKoaContext): Promise<void> {
  ctx.body = { status: 'ok' };
}

/** Readiness: the database answers. */
export function readyz(db: Database) {
  return async (ctx: AdminKoaContext): Promise<void> => {
    const ready = await pingDatabase(db);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable' };
  };
}
