import { createHash } from 'node:crypto';
import Router from '../koa-router.js';
import { openApiDocument } from './document.js';

// Serialised once: the document never changes while the process runs, so its ETag is stable and
// clients (and caches in front of the gateway) can revalidate cheaply.
const body = JSON.stringify(openApiDocument);
const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;

/** GET /api/v1/openapi.json: the gateway's OpenAPI 3.1 document, cacheable, with an ETag. */
export function openApiRouter(): Router {
  const router = new Router();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.status = 200;
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('ETag', etag);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return router;
}
