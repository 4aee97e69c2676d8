import { answerReadiness } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import type { AdminKoaContext } from '../koa-context.js';

/** Liveness: the process answers. */
export async function healthz(ctx: AdminKoaContext): Promise<void> {
  ctx.body = { status: 'ok' };
}

/** Readiness: the database answers, and so does the storage that downloads read from. */
export function readyz(services: Pick<Services, 'db' | 'storage'>) {
  return (ctx: AdminKoaContext): Promise<void> => answerReadiness(ctx, services);
}
