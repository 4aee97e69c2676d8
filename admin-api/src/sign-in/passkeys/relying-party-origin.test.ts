// The relying party of a passkey ceremony without PUBLIC_ADMIN_URL is the address the request was
// made to, never the request's Origin header: Koa 3's `ctx.origin` is that header, which a client
// without one (curl, a script) does not send, and which any non-browser client may set to anything.
import { createTestServices } from '@intake/shared/test';
import { jest } from '@jest/globals';
import { startAdmin, type AdminServer } from '../../server.js';

jest.setTimeout(120_000);

const START = 'mutation { startPasskeySignIn }';

let services: Awaited<ReturnType<typeof createTestServices>>;
let admin: AdminServer;

/** `startPasskeySignIn` at localhost (an IP address is refused), with the given extra headers. */
async function startAt(headers: Record<string, string>) {
  const url = admin.url.replace('//127.0.0.1:', '//localhost:');
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: START }),
  });
  return (await response.json()) as {
    data?: { startPasskeySignIn: { rpId: string } } | null;
    errors?: { extensions?: { code?: string } }[];
  };
}

beforeAll(async () => {
  services = await createTestServices();
  admin = await startAdmin(services);
});

afterAll(async () => {
  await admin?.close();
  await services?.close();
});

it('answers a request without an Origin header with the host it was sent to as the relying party', async () => {
  const answer = await startAt({});
  expect(answer.errors).toBeUndefined();
  expect(answer.data!.startPasskeySignIn.rpId).toBe('localhost');
});

it('takes no relying party from an Origin header that names another site', async () => {
  const answer = await startAt({ origin: 'https://phish.example' });
  expect(answer.errors).toBeUndefined();
  expect(answer.data!.startPasskeySignIn.rpId).toBe('localhost');
});
