// A real PostgreSQL server refusing service while the gateway is up, in each way it does so in
// production: a database not accepting connections (55000), over its connection limit (53300), and
// a backend terminated by an administrator mid-query (57P01). Each is 503 service_unavailable with
// Retry-After, nothing stored, and the gateway serves again once the database is back.
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import { createOutageDatabase, describeOnPostgres, makeForm, makeSite, type OutageDatabase } from '@intake/shared/test';
import { startGateway, type RunningGateway } from '../index.js';
import { send } from '../test/harness.js';

const serverUrl = process.env.TEST_DATABASE_URL;

let outage: OutageDatabase;
let gateway: RunningGateway;

beforeAll(async () => {
  if (!serverUrl) {
    return;
  }
  outage = await createOutageDatabase(serverUrl);
  gateway = await startGateway(outage.services);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await outage?.close();
}, 30_000);

async function stored(): Promise<{ submissions: number; files: number }> {
  const em = outage.services.db.em.fork();
  return { submissions: await em.count(SubmissionSchema, {}), files: await em.count(StoredFileSchema, {}) };
}

async function expectUnavailable(response: Response): Promise<void> {
  const body = (await response.json()) as { code?: string };
  expect({ status: response.status, code: body.code }).toEqual({ status: 503, code: 'service_unavailable' });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describeOnPostgres('the gateway while PostgreSQL refuses service', () => {
  async function siteAndForm() {
    const { site, token } = await makeSite(outage.services);
    const form = await makeForm(outage.services, site);
    const submit = () => send(gateway.url, form.code, { apiKey: outage.services.config.apiKey, token, json: { a: 1 } });
    // Warm: the site and form are cached, so the outage meets the insert.
    expect((await submit()).status).toBe(201);
    return submit;
  }

  it('503 when the database is not accepting connections (55000)', async () => {
    const submit = await siteAndForm();
    const before = await stored();
    await outage.refuseConnections();
    try {
      await outage.terminateConnections();
      await expectUnavailable(await submit());
    } finally {
      await outage.restore();
    }
    expect(await stored()).toEqual(before);
    expect((await submit()).status).toBe(201);
  });

  it('503 when the database is over its connection limit (53300)', async () => {
    const submit = await siteAndForm();
    const before = await stored();
    await outage.limitConnections();
    try {
      await outage.terminateConnections();
      await expectUnavailable(await submit());
    } finally {
      await outage.restore();
    }
    expect(await stored()).toEqual(before);
    expect((await submit()).status).toBe(201);
  });

  it('503 when an administrator terminates the backend mid-query (57P01)', async () => {
    const submit = await siteAndForm();
    const before = await stored();
    await outage.terminateWhileWaitingOn('submissions', async () => {
      await expectUnavailable(await submit());
    });
    expect(await stored()).toEqual(before);
    expect((await submit()).status).toBe(201);
  });
});
