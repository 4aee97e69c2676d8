// Ceiling of the JSON figures: a bare Koa server that reads a JSON body and answers 201, nothing else.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { serveInChild } from '../child-protocol.js';

await serveInChild(async () => {
  const app = new Koa();
  // A client cut off at the end of a timed run is no error worth printing.
  app.silent = true;
  app.use(async (ctx) => {
    const body = JSON.parse((await getRawBody(ctx.req, { limit: '1mb', encoding: 'utf8' })) as string) as object;
    ctx.status = 201;
    ctx.body = { id: randomUUID(), fields: Object.keys(body).length };
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
