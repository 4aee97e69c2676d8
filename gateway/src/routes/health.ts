import Router from '@koa/router';
import { pingDatabase, type Services } from '@intake/shared';

/** GET /healthz: the process is up. GET /readyz: the database and the storage answer. */
export function healthRouter(services: Services): Router {
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
      checks: { database: database ? 'ok' : 'down', storage: storage ? 'ok' : 'down' },
    };
  });
  return router;
}
