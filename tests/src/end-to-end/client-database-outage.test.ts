// @intake/client through a database outage (docs/client.md): PostgreSQL refuses connections while a
// submission is sent, so the gateway answers 503 service_unavailable with Retry-After; the client
// waits as told and sends again with the same Idempotency-Key; once the database is back the
// submission is stored, exactly once.
import { jest } from '@jest/globals';
import { IntakeClient } from '@intake/client';
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import { createOutageDatabase, describeOnPostgres, makeForm, makeSite, type OutageDatabase } from '@intake/shared/test';
import { startGateway, type RunningGateway } from '@intake/gateway';
import { png } from '@intake/test-files';

jest.setTimeout(60_000);

describeOnPostgres('@intake/client through a database outage', (serverUrl) => {
  let outage: OutageDatabase;
  let gateway: RunningGateway;

  beforeAll(async () => {
    outage = await createOutageDatabase(serverUrl);
    gateway = await startGateway(outage.services);
  });

  afterAll(async () => {
    await gateway?.close();
    await outage?.close();
  });

  async function stored() {
    const em = outage.services.db.em.fork();
    return { submissions: await em.count(SubmissionSchema, {}), files: await em.count(StoredFileSchema, {}) };
  }

  it('retries 503 service_unavailable with the same key and stores exactly one submission once the database is back', async () => {
    const { site, token } = await makeSite(outage.services);
    const form = await makeForm(outage.services, site);
    const client = new IntakeClient({
      url: gateway.url,
      apiKey: outage.services.config.apiKey,
      siteToken: token,
      retry: { attempts: 20, baseDelayMs: 100, maxDelayMs: 15_000 },
    });
    // Warm: the site and form are cached, so the outage meets the submission's own write.
    await client.submit(form.code, { warm: true });
    const before = await stored();

    await outage.refuseConnections();
    await outage.terminateConnections();
    let answered = false;
    const pending = client
      .submit(form.code, { name: 'Ada' }, { files: [{ field: 'photo', name: 'photo.png', data: png() }] })
      .finally(() => {
        answered = true;
      });
    // The gateway answers 503 with Retry-After while the database is gone: still waiting, nothing stored.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(answered).toBe(false);
    await outage.restore();
    const result = await pending;

    expect(result.attempts).toBeGreaterThan(1);
    expect(await stored()).toEqual({ submissions: before.submissions + 1, files: before.files + 1 });
    const em = outage.services.db.em.fork();
    expect(await em.count(SubmissionSchema, { idempotencyKey: result.idempotencyKey })).toBe(1);
    expect((await em.findOneOrFail(SubmissionSchema, { id: result.id })).data).toEqual({ name: 'Ada' });
  });
});
