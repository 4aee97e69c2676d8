import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { createLogger } from '@intake/shared/logger';
import { createTestServices, testDriverName } from '@intake/shared/test';
import { ensureAdmin, ADMIN_EMAIL, ADMIN_PASSWORD, graphqlRequest } from '../test/harness.js';
import { startAdmin, type AdminServer } from '../server.js';

// Observability of the admin API through a listening server: access lines (read back from a logger
// writing to memory), /metrics and /readyz.

jest.setTimeout(30_000);

const logged = {
  text: '',
  write(line: string) {
    logged.text += line;
  },
};

function accessLines(requestId: string): Record<string, unknown>[] {
  return logged.text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request' && line.requestId === requestId);
}

async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The count of `http_request_duration_seconds` for these labels, from the metrics text. */
function httpCount(text: string, labels: string): number {
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`http_request_duration_seconds_count{${labels}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;
let admin: AdminServer;

beforeAll(async () => {
  services = await createTestServices({ ADMIN_EMAIL, ADMIN_PASSWORD });
  await ensureAdmin(services);
  admin = await startAdmin({ ...services, logger: createLogger('info', {}, logged) });
}, 60_000);

afterAll(async () => {
  await admin.close();
  await services.close();
});

describe(`admin observability on ${testDriverName()}`, () => {
  it('times /graphql under its route and logs one line without the password or the token', async () => {
    const login = await graphqlRequest<{ login: { token: string } }>(
      admin.url,
      'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    );
    const token = login.data!.login.token;
    const requestId = `sites-${randomUUID()}`;
    const sites = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': requestId },
      body: JSON.stringify({ query: '{ sites { id } }' }),
    });
    expect(sites.status).toBe(200);
    expect(sites.headers.get('x-request-id')).toBe(requestId);

    const lines = await eventually(
      () => accessLines(requestId),
      (found) => found.length > 0,
    );
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        msg: 'request',
        service: 'admin',
        requestId,
        method: 'POST',
        route: '/graphql',
        status: 200,
        durationMs: expect.any(Number),
      },
    ]);
    expect(logged.text).not.toContain(ADMIN_PASSWORD);
    expect(logged.text).not.toContain(token);

    const metrics = await eventually(
      async () => (await fetch(`${admin.url}/metrics`)).text(),
      (text) => httpCount(text, 'service="admin",method="POST",route="/graphql",status="200"') >= 2,
    );
    expect(httpCount(metrics, 'service="admin",method="POST",route="/graphql",status="200"')).toBe(2);
  });

  it('answers /metrics in Prometheus text with route patterns, never ids', async () => {
    const fileId = randomUUID();
    const download = await fetch(`${admin.url}/files/${fileId}`);
    expect(download.status).toBeGreaterThanOrEqual(400);
    expect(download.status).toBeLessThan(500);

    const response = await fetch(`${admin.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await eventually(
      async () => (await fetch(`${admin.url}/metrics`)).text(),
      (found) => found.includes('route="/files/:id"'),
    );
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="admin",method="GET",route="\/files\/:id",status="4\d\d"\} 1/,
    );
    expect(text).not.toContain(fileId);
    // The gateway's submission metrics belong to the gateway's registry only.
    expect(text).not.toContain('intake_submissions_accepted_total');
    if (testDriverName() === 'postgresql') {
      expect(text).toMatch(/^intake_db_pool_connections [1-9]/m);
    } else {
      expect(text).not.toContain('intake_db_pool_');
    }
  });

  it('lists its readiness checks: the database and the storage of downloads', async () => {
    const ready = await fetch(`${admin.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });

    const ping = jest.spyOn(services.storage, 'ping').mockResolvedValue(false);
    try {
      const requestId = `unready-${randomUUID()}`;
      const unready = await fetch(`${admin.url}/readyz`, { headers: { 'x-request-id': requestId } });
      expect(unready.status).toBe(503);
      expect(await unready.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', storage: 'down' } });
      const lines = await eventually(
        () => accessLines(requestId),
        (found) => found.length > 0,
      );
      expect(lines).toEqual([expect.objectContaining({ level: 50, route: '/readyz', status: 503 })]);
    } finally {
      ping.mockRestore();
    }
  });
});
