// The login limiter behind a trusted proxy: the client address is the entry the proxy appended to
// X-Forwarded-For, so a client that writes its own entries cannot start a fresh count with each.
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName, type GraphQLErrorBody } from '@intake/shared/test';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

let admin: TestAdmin;

beforeAll(async () => {
  admin = await startTestAdmin({ TRUST_PROXY: 'true' });
  const em = admin.services.db.em.fork();
  em.create(AdminUserSchema, { email: 'victim@example.com', passwordHash: await hashPassword('the victim password') });
  await em.flush();
}, 60_000);

afterAll(async () => {
  await admin?.close();
}, 30_000);

/** One login attempt as it arrives through the proxy: the client's own header, then the proxy's entry. */
async function loginThroughProxy(forwardedFor: string, password: string): Promise<string | undefined> {
  const response = await fetch(`${admin.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({
      query: 'mutation($p: String!) { login(email: "victim@example.com", password: $p) { token } }',
      variables: { p: password },
    }),
  });
  const body = (await response.json()) as { errors?: GraphQLErrorBody[] };
  return body.errors?.[0]?.extensions?.code ?? 'OK';
}

describe(`admin login limiter behind a proxy on ${testDriverName()}`, () => {
  it('counts the address the proxy appended, whatever the client wrote left of it', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(await loginThroughProxy(`198.51.100.${attempt}, 10.0.0.1`, `guess ${attempt}`)).toBe('UNAUTHENTICATED');
    }
    expect(await loginThroughProxy('198.51.100.200, 10.0.0.1', 'guess 11')).toBe('RATE_LIMITED');
    expect(await loginThroughProxy('10.0.0.2, 10.0.0.1', 'guess 12')).toBe('RATE_LIMITED');
    // Another client behind the same proxy has its own count.
    expect(await loginThroughProxy('10.0.0.1, 10.0.0.2', 'the victim password')).toBe('OK');
  });
});
