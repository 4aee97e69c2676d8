import Router from '../koa-router.js';
import { answerReadiness } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
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
  router.get('/readyz', (ctx) => answerReadiness(ctx, services, { rateLimits: rateLimits.store() }));
  return router;
}
