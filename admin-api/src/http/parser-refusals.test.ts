// Requests Node's HTTP parser refuses never reach GraphQL; the admin port answers them as the
// gateway does, with a catalogued problem document, and closes the connection.
import { jest } from '@jest/globals';
import { createTestServices, rawRequest } from '@intake/shared/test';
import { startAdmin, type AdminServer } from '../server.js';

jest.setTimeout(60_000);

let services: Awaited<ReturnType<typeof createTestServices>>;
let admin: AdminServer;

beforeAll(async () => {
  services = await createTestServices();
  admin = await startAdmin(services);
});

afterAll(async () => {
  await admin?.close();
  await services?.close();
});

async function expectProblem(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('connection')).toBe('close');
  expect(await response.json()).toMatchObject({ status, code });
}

describe('requests the HTTP parser refuses, on the admin port', () => {
  it('answers a request line and headers over 16 KiB with 431 headers_too_large', async () => {
    const path = `/graphql?padding=${'a'.repeat(20 * 1024)}`;
    await expectProblem(
      await rawRequest(admin.url, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`),
      431,
      'headers_too_large',
    );
  });

  it('answers a malformed header line with 400 request_invalid', async () => {
    await expectProblem(
      await rawRequest(admin.url, 'POST /graphql HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      400,
      'request_invalid',
    );
  });

  it('still answers GraphQL on the same port afterwards', async () => {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(401);
  });
});
