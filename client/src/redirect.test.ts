// A gateway URL that answers with a redirect, against two listening HTTP servers (two origins): the
// client sends the API key, the site token and the submission only to the URL it was given, and
// throws an IntakeRedirectError naming the status and the Location's origin, never the credentials.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { IntakeClient, IntakeRedirectError } from './index.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Listening {
  server: Server;
  origin: string;
  received: Received[];
  /** The answer to a request for a path not starting with /final. */
  redirect?: { status: number; location: string };
}

async function listen(): Promise<Listening> {
  const state = { received: [] as Received[] } as Listening;
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      state.received.push({ method: req.method!, url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (state.redirect && !url.startsWith('/final')) {
        res.writeHead(state.redirect.status, { Location: state.redirect.location }).end();
        return;
      }
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'stored-elsewhere', createdAt: new Date().toISOString(), files: [] }));
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const API_KEY = 'key-service-0123456789abcdef';
const SITE_TOKEN = 'site-token-fedcba9876543210';
const FIELDS = { email: 'ada@example.com', message: 'private words' };

let gateway: Listening;
let elsewhere: Listening;

beforeAll(async () => {
  [gateway, elsewhere] = await Promise.all([listen(), listen()]);
});

afterAll(async () => {
  await Promise.all([gateway, elsewhere].map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

beforeEach(() => {
  gateway.received.length = 0;
  elsewhere.received.length = 0;
});

function client(): IntakeClient {
  return new IntakeClient({ url: gateway.origin, apiKey: API_KEY, siteToken: SITE_TOKEN, retry: { attempts: 3 } });
}

describe('a redirect from the gateway URL', () => {
  it.each([307, 308, 301, 302, 303])(
    'to another origin (%i) is not followed: nothing reaches it, and the error names status and origin',
    async (status) => {
      gateway.redirect = { status, location: `${elsewhere.origin}/final/api/v1/send/FORM?secret=in-location` };
      const error = await client()
        .submit('FORM', FIELDS)
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      // What the old client did: X-KEY-SERVICE, the site token and the submission went there.
      expect(elsewhere.received).toEqual([]);
      expect(error).toBeInstanceOf(IntakeRedirectError);
      const redirect = error as IntakeRedirectError;
      expect(redirect).toMatchObject({ name: 'IntakeRedirectError', status, location: elsewhere.origin, attempts: 1 });
      expect(redirect.message).toBe(
        `The gateway answered ${status} redirecting to ${elsewhere.origin}; not followed: the API key, the site token and the submission go only to the configured URL.`,
      );
      expect(redirect.message).not.toContain('secret=in-location');
      // Sent once to the configured gateway, never retried.
      expect(gateway.received).toHaveLength(1);
      expect(gateway.received[0]!.headers['x-key-service']).toBe(API_KEY);
    },
  );

  it.each([307, 308, 301, 302, 303])('to the same origin (%i) is not followed either', async (status) => {
    gateway.redirect = { status, location: '/final/api/v1/send/FORM' };
    const error = await client()
      .submit('FORM', FIELDS)
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(gateway.received.map(({ url }) => url)).toEqual(['/api/v1/send/FORM']);
    expect(error).toBeInstanceOf(IntakeRedirectError);
    expect(error).toMatchObject({ status, location: gateway.origin });
  });

  it.each(['', 'http://[unreadable'])(
    'without a readable Location (%j) says so, and is not retried',
    async (location) => {
      gateway.redirect = { status: 307, location };
      const error = await client()
        .submit('FORM', FIELDS)
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(IntakeRedirectError);
      expect(error).toMatchObject({ status: 307, location: undefined, attempts: 1 });
      expect((error as Error).message).toBe(
        'The gateway answered 307 redirecting without a usable Location; not followed: the API key, the site token and the submission go only to the configured URL.',
      );
      expect(gateway.received).toHaveLength(1);
    },
  );
});
