import Router from '@koa/router';
import type { Services } from '@intake/shared/services';

/**
 * GET /.well-known/jwks.json: the public keys receipts are verified with (docs/receipts.md), the
 * current one first, then the retired ones still published. Read at each request: a retired key
 * leaves the set when its retention ends, without a restart.
 */
export function jwksRouter(services: Services): Router {
  const router = new Router();
  router.get('/.well-known/jwks.json', async (ctx) => {
    const keys = await services.signingKeys();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/jwk-set+json';
    ctx.body = keys.jwks();
  });
  return router;
}
