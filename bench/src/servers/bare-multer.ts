// Ceiling of the upload figures: a bare @koa/multer server that streams each file to disk and
// answers 201. The files are removed after the answer, as the gateway removes its temporary copies;
// with KEEP_UPLOADS=1 they are kept until the server stops, as a store keeps what it accepted. The
// difference is the kernel's: a file removed at once gives its page-cache pages back for the next
// upload to reuse, while a kept one makes every upload fill fresh pages (docs/performance.md).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import multer from '@koa/multer';
import Koa from 'koa';
import { serveInChild } from '../child-protocol.js';

const keep = process.env.KEEP_UPLOADS === '1';

await serveInChild(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-multer-'));
  const upload = multer({ storage: multer.diskStorage({ destination: dir }), limits: { fileSize: 11 * 1024 * 1024 } });
  const app = new Koa();
  // A client cut off at the end of a timed run is no error worth printing.
  app.silent = true;
  app.use(upload.any());
  app.use(async (ctx) => {
    const files = (ctx.files ?? []) as multer.File[];
    ctx.status = 201;
    ctx.body = { id: randomUUID(), files: files.map((file) => ({ name: file.originalname, size: file.size })) };
    if (!keep) {
      ctx.res.once('finish', () => void Promise.all(files.map((file) => rm(file.path, { force: true }))));
    }
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
});
