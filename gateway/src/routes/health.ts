import Router from '@koa/router';
import { pingDatabase, type Services } from '@intake/shared';
import type { RateLimits } from '../rate-limit/rate-limits.js';

/**
 * GET /healthz: the process is up. GET /readyz: the database and the storage answer. It also says
 * where the rate limits are counted; a Redis outage does not make the gateway unready (it counts
 * in memory meanwhile).
 */
export function healthRouter(services: Services, rateLimits: Pick<RateLimits, 'store'>): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [database, storage] = await Promise.all([pingDatabase(services.db), services.storage.ping()]);
    const ready = database && storage;
    ctx.status = ready ? 200 : 503;
    if (!ready) {
      ctx.set('Retry-After', '5');
    }
    ctx.body = {
      status: ready ? 'ok' : 'unavailable',
      checks: {
        database: database ? 'ok' : 'down',
        storage: storage ? 'ok' : 'down',
        rateLimits: rateLimits.store(),
      },
    };
  });
  return router;
}
