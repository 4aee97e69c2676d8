// An admin URL that answers with a redirect, against two listening HTTP servers (two origins): the
// command line sends the API token and the GraphQL request only to the URL it was given, and fails
// (exit 1) with the status and the Location's origin, never the token.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { buildCli, runCli } from '../test/cli-harness.js';

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

const ME = { data: { me: { id: '1', email: 'owner@example.com', name: 'Owner', role: 'OWNER' } } };

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
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(ME));
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const TOKEN = 'itk_redirect_test_0123456789abcdef';
let admin: Listening;
let elsewhere: Listening;
let configHome: string;

beforeAll(async () => {
  buildCli();
  [admin, elsewhere] = await Promise.all([listen(), listen()]);
  configHome = await mkdtemp(path.join(tmpdir(), 'intake-cli-redirect-'));
});

afterAll(async () => {
  await Promise.all([admin, elsewhere].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  await rm(configHome, { recursive: true, force: true });
});

beforeEach(() => {
  admin.received.length = 0;
  elsewhere.received.length = 0;
});

const whoami = () =>
  runCli(['whoami'], { env: { INTAKE_ADMIN_URL: admin.origin, INTAKE_TOKEN: TOKEN, XDG_CONFIG_HOME: configHome } });

describe('a redirect from the admin URL', () => {
  it.each([307, 308, 301, 302, 303])(
    'to another origin (%i) is not followed: nothing reaches it, and the command fails naming status and origin',
    async (status) => {
      admin.redirect = { status, location: `${elsewhere.origin}/final/graphql?secret=in-location` };
      const result = await whoami();
      // What the old command line did: the GraphQL request (and on 307/308 its variables) went there.
      expect(elsewhere.received).toEqual([]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `intake: ${admin.origin} answered HTTP ${status} redirecting to ${elsewhere.origin}; not followed: the API token and the request go only to the admin URL given (use the admin API's own address)\n`,
      );
      expect(result.stdout).toBe('');
      expect(admin.received).toHaveLength(1);
      expect(admin.received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    },
  );

  it.each([307, 308, 301, 302, 303])(
    'to the same origin (%i) is not followed either: the token goes once',
    async (status) => {
      admin.redirect = { status, location: '/final/graphql' };
      const result = await whoami();
      expect(admin.received.map(({ url, headers }) => [url, headers.authorization])).toEqual([
        ['/graphql', `Bearer ${TOKEN}`],
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`answered HTTP ${status} redirecting to ${admin.origin}; not followed`);
      expect(result.stderr).not.toContain(TOKEN);
    },
  );

  it('without a Location says so; with -o json too', async () => {
    admin.redirect = { status: 307, location: '' };
    const result = await runCli(['whoami', '-o', 'json'], {
      env: { INTAKE_ADMIN_URL: admin.origin, INTAKE_TOKEN: TOKEN, XDG_CONFIG_HOME: configHome },
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: `${admin.origin} answered HTTP 307 redirecting without a usable Location; not followed: the API token and the request go only to the admin URL given (use the admin API's own address)`,
      errors: [],
    });
  });
});
