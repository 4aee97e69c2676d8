import Router from '../koa-router.js';
import { answerJwks } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';

/** GET /.well-known/jwks.json: the public keys receipts are verified with (docs/receipts.md). */
export function jwksRouter(services: Services): Router {
  const router = new Router();
  router.get('/.well-known/jwks.json', (ctx) => answerJwks(ctx, services));
  return router;
}
