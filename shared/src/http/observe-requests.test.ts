import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../logger/index.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { observeRequests, type ObservedContext } from './observe-requests.js';

// A real server and real sockets: the observer waits for the response's 'close' as in the services.
function observedServer(handle: (res: ServerResponse, req: IncomingMessage) => Promise<void>) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const metrics = createServiceMetrics('gateway');
  const observed: unknown[] = [];
  const observe = observeRequests<ObservedContext>({
    metrics,
    logger: createLogger('info', {}, destination),
    describe: () => ({ siteId: 'site-1', formId: undefined, code: undefined }),
    onObserved: (_ctx, observation) => observed.push(observation),
  });
  const server = createServer((req, res) => {
    const ctx: ObservedContext = { method: req.method!, res, state: { requestId: 'r-1' }, _matchedRoute: '/x/:id' };
    void observe(ctx, () => handle(res, req));
  });
  return { server, lines, metrics, observed };
}

async function listening(server: ReturnType<typeof createServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function get(port: number, path: string): Promise<number> {
  const req = request({ port, host: '127.0.0.1', path, agent: false });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  res.resume();
  await once(res, 'end');
  return res.statusCode!;
}

const untilEvery = async (check: () => boolean) => {
  while (!check()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('observeRequests', () => {
  it('writes one line and one duration sample per request, counted per method, route and status', async () => {
    const { server, lines, metrics } = observedServer(async (res, req) => {
      res.statusCode = req.url === '/x/missing' ? 404 : 201;
      res.end('{}');
    });
    const port = await listening(server);
    try {
      for (const path of ['/x/1', '/x/2', '/x/missing', '/x/3']) {
        await get(port, path);
      }
      await untilEvery(() => lines.length === 4);
      expect(lines.map((line) => line.status)).toEqual([201, 201, 404, 201]);
      expect(lines[0]).toEqual(
        expect.objectContaining({
          msg: 'request',
          service: 'gateway',
          requestId: 'r-1',
          method: 'GET',
          route: '/x/:id',
          status: 201,
          siteId: 'site-1',
        }),
      );
      expect(lines[0]).not.toHaveProperty('formId');
      expect(lines[0]).not.toHaveProperty('aborted');
      const text = await metrics.registry.metrics();
      expect(text).toContain(
        'http_request_duration_seconds_count{service="gateway",method="GET",route="/x/:id",status="201"} 3',
      );
      expect(text).toContain(
        'http_request_duration_seconds_count{service="gateway",method="GET",route="/x/:id",status="404"} 1',
      );
    } finally {
      server.close();
    }
  });

  it('records a request whose client went away once its handler is done, as aborted, and only once', async () => {
    let handlerDone = false;
    const { server, lines, observed } = observedServer(async (res, req) => {
      // The handler is still working when the client goes away: 'close' comes first.
      await once(req.socket, 'close');
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.statusCode = 503;
      handlerDone = true;
    });
    const port = await listening(server);
    try {
      const req = request({ port, host: '127.0.0.1', path: '/x/1', agent: false });
      req.on('error', () => undefined);
      req.end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      req.destroy();
      await untilEvery(() => lines.length === 1);
      expect(handlerDone).toBe(true);
      expect(lines[0]).toEqual(expect.objectContaining({ status: 503, aborted: true }));
      expect(lines[0]!.durationMs as number).toBeGreaterThanOrEqual(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines).toHaveLength(1);
      expect(observed).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
