// The client pointed at another service than the gateway (the admin API answers its POST with a plain
// `404 Not Found`, as here from a listening server): the IntakeProblem's detail names the origin and
// the setting to check, where it was empty before; a gateway's own 404 keeps its problem details.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IntakeClient, IntakeProblem } from './index.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/gateway/')) {
        res.writeHead(404, { 'Content-Type': 'application/problem+json' });
        res.end(JSON.stringify({ status: 404, code: 'not_found', title: 'Not found', detail: 'No such form.' }));
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const submit = (url: string) =>
  new IntakeClient({ url, apiKey: 'key', siteToken: 'token', retry: { attempts: 1 } })
    .submit('abc123', { message: 'hello' })
    .then(
      () => undefined,
      (error: unknown) => error as IntakeProblem,
    );

describe('an answer without problem details', () => {
  it('names the origin and INTAKE_GATEWAY_URL in the detail', async () => {
    const problem = await submit(origin);
    expect(problem).toBeInstanceOf(IntakeProblem);
    expect(problem).toMatchObject({ status: 404, code: 'request_invalid' });
    expect(problem?.detail).toBe(
      `${origin} answered 404 without the gateway's problem details: check the client's url (INTAKE_GATEWAY_URL in the documented examples); it must be the gateway's address, not the admin API's.`,
    );
    expect(problem?.message).toContain('INTAKE_GATEWAY_URL');
  });

  it("keeps a gateway's own problem details as sent", async () => {
    const problem = await submit(`${origin}/gateway`);
    expect(problem).toMatchObject({ status: 404, code: 'not_found', detail: 'No such form.' });
  });
});
