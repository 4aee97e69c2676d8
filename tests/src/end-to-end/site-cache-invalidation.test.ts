// The gateway caches sites, forms and their webhook ids; these tests prove that an administrator's change reaches every
// gateway at once. Two gateways share one database, each with its own cache and its own change feed:
// on PostgreSQL the second one has its own ORM and pool, as a second process would; on PGlite (one
// process owns the database) both listen on the same embedded database.
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { openDatabase, SITE_CHANGES_APPLICATION_NAME, type Database } from '@intake/shared/db';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  FormSchema,
  StoredFileSchema,
  SubmissionSchema,
  type Form,
} from '@intake/shared/entities';
import { createServices, type Services } from '@intake/shared/services';
import { generateControlCode } from '@intake/shared/site-token';
import { createDeliveryWorker } from '@intake/worker';
import { createTestServices, graphqlData, makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { startGateway, type RunningGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };
const onPostgres = testDriverName() === 'postgresql';

let services: Awaited<ReturnType<typeof createTestServices>>;
let secondDb: Database | undefined;
let gateways: RunningGateway[];
let admin: Awaited<ReturnType<typeof startAdmin>>;
let adminToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting until ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function sql(statement: string, params: unknown[] = []): Promise<unknown> {
  return services.db.em.fork().getConnection().execute(statement, params);
}

/** Status and problem code of one JSON submission at each gateway. */
async function outcomes(code: string, token: string, body?: () => BodyInit): Promise<string[]> {
  return Promise.all(
    gateways.map(async (gateway) => {
      const response = await send(gateway.url, code, {
        apiKey: services.config.apiKey,
        token,
        ...(body === undefined ? { json: { name: 'Ada' } } : { body: body() }),
      });
      const answer = (await response.json()) as { code?: string };
      return response.status === 201 ? '201' : `${response.status} ${answer.code}`;
    }),
  );
}

function withPdf(): FormData {
  const body = new FormData();
  body.append('fichier', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'report.pdf');
  return body;
}

const NOTIFY_TRIGGERS = [
  ['sites', 'sites_notify_change'],
  ['forms', 'forms_notify_change'],
  ['webhooks', 'webhooks_notify_change'],
] as const;

/** Runs `change` with the change-feed triggers off: the gateways hear nothing of it. */
async function withoutTriggers(change: () => Promise<unknown>): Promise<void> {
  for (const [table, trigger] of NOTIFY_TRIGGERS) {
    await sql(`alter table "${table}" disable trigger "${trigger}"`);
  }
  try {
    await change();
  } finally {
    for (const [table, trigger] of NOTIFY_TRIGGERS) {
      await sql(`alter table "${table}" enable trigger "${trigger}"`);
    }
  }
}

/** One JSON submission at each gateway, each accepted; how many webhook deliveries each one got. */
async function webhookDeliveries(code: string, token: string): Promise<string[]> {
  return Promise.all(
    gateways.map(async (gateway) => {
      const response = await send(gateway.url, code, { apiKey: services.config.apiKey, token, json: { name: 'Ada' } });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return String(await services.db.em.fork().count(DeliverySchema, { submission: id, channel: 'webhook' }));
    }),
  );
}

async function createWebhook(formId: string): Promise<string> {
  const { createWebhook } = await gql(
    'mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } } }',
    { i: { formId, url: 'https://example.com/hook' } },
  );
  return createWebhook.webhook.id as string;
}

/** Repeats `attempt` until every gateway answers `expected`, for at most 2 s (far below the entries' 30 s age). */
async function eventually(attempt: () => Promise<string[]>, expected: string): Promise<string[]> {
  const deadline = Date.now() + 2000;
  let outcome = await attempt();
  while (outcome.some((one) => one !== expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    outcome = await attempt();
  }
  return outcome;
}

async function siteWithForm(): Promise<{ siteId: string; token: string; form: Form }> {
  const { site, token } = await makeSite(services);
  const form = await makeForm(services, site);
  return { siteId: site.id, token, form };
}

beforeAll(async () => {
  services = await createTestServices({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await ensureAdmin(services);
  admin = await startAdmin(services);
  let second: Services = services;
  if (onPostgres) {
    secondDb = await openDatabase({ databaseUrl: services.testDb.databaseUrl, poolSize: 3 });
    second = createServices(services.config, secondDb, services.logger);
  }
  gateways = [await startGateway(services), await startGateway(second)];
  await until(() => gateways.every((gateway) => gateway.siteCache.caching), 'both change feeds are live');
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  adminToken = login.token;
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await admin.close();
  await secondDb?.close(true);
  await services.close();
});

describe(`site and form cache on ${testDriverName()}, two gateways on one database`, () => {
  it('answers repeat requests from memory: a change the change feed does not tell goes unseen', async () => {
    const { token, form } = await siteWithForm();
    expect(await outcomes(form.code, token, withPdf)).toEqual(['201', '201']);
    // Without the trigger nothing tells the gateways: their cached copy still allows PDF.
    await withoutTriggers(() =>
      sql('update "forms" set "allowed_mime_types" = ? where "id" = ?', ['{image/png}', form.id]),
    );
    expect(await outcomes(form.code, token, withPdf)).toEqual(['201', '201']);
    // The next change of the form is told, and both gateways drop their copy.
    await sql('update "forms" set "name" = ? where "id" = ?', ['Renamed', form.id]);
    expect(await eventually(() => outcomes(form.code, token, withPdf), '400 file_type_not_allowed')).toEqual([
      '400 file_type_not_allowed',
      '400 file_type_not_allowed',
    ]);
  });

  it('stores exactly what it answers through the one-statement insert', async () => {
    const { token, form } = await siteWithForm();
    const response = await send(gateways[0]!.url, form.code, {
      apiKey: services.config.apiKey,
      token,
      json: { name: '<b>Ada</b>', quote: "it's", n: 1.5, ok: true, none: null, list: ['a?', '$1'] },
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { id: string; createdAt: string };
    const stored = await services.db.em.fork().findOneOrFail(SubmissionSchema, { id: answer.id });
    expect(stored.form.id).toBe(form.id);
    expect(stored.createdAt.toISOString()).toBe(answer.createdAt);
    expect(stored.idempotencyKey).toBeNull();
    expect(stored.data).toEqual({ name: 'Ada', quote: 'it&#39;s', n: 1.5, ok: true, none: null, list: ['a?', '$1'] });
  });

  it('stores a submission and its files in the one statement, exactly as answered', async () => {
    const { token, form } = await siteWithForm();
    const body = withPdf();
    body.append('name', 'Ada');
    body.append('cv', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'cv.pdf');
    const response = await send(gateways[0]!.url, form.code, { apiKey: services.config.apiKey, token, body });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as {
      id: string;
      createdAt: string;
      files: { id: string; field: string; name: string; mimeType: string; size: number; sha256: string }[];
    };
    expect(answer.files.map((file) => [file.field, file.name])).toEqual([
      ['fichier', 'report.pdf'],
      ['cv', 'cv.pdf'],
    ]);
    const em = services.db.em.fork();
    const stored = await em.findOneOrFail(SubmissionSchema, { id: answer.id });
    expect(stored.createdAt.toISOString()).toBe(answer.createdAt);
    expect(stored.data).toEqual({ name: 'Ada' });
    const rows = await em.find(StoredFileSchema, { submission: answer.id }, { orderBy: { position: 'asc' } });
    expect(
      rows.map(({ id, field, name, mimeType, size, sha256 }) => ({ id, field, name, mimeType, size, sha256 })),
    ).toEqual(answer.files);
    expect(rows.map((row) => row.position)).toEqual([0, 1]);
    for (const row of rows) {
      expect(row.createdAt.toISOString()).toBe(answer.createdAt);
      const object = await services.storage.get(row.storageKey);
      object?.stream.destroy();
      expect(object?.size).toBe(row.size);
    }
  });

  it('refuses at the write a rotation, a disabling or a deletion that no gateway was told of', async () => {
    const { siteId, token, form } = await siteWithForm();
    const both = async () => [...(await outcomes(form.code, token)), ...(await outcomes(form.code, token, withPdf))];
    expect(await both()).toEqual(['201', '201', '201', '201']);
    const controlCode = (
      (await sql('select "control_code" from "sites" where "id" = ?', [siteId])) as { control_code: string }[]
    )[0]!.control_code;
    await withoutTriggers(async () => {
      await sql('update "sites" set "control_code" = ? where "id" = ?', [generateControlCode(), siteId]);
      expect(await both()).toEqual(Array(4).fill('403 token_invalid'));
      await sql('update "sites" set "control_code" = ? where "id" = ?', [controlCode, siteId]);
      expect(await both()).toEqual(['201', '201', '201', '201']);
      await sql('update "forms" set "enabled" = false where "id" = ?', [form.id]);
      expect(await both()).toEqual(Array(4).fill('403 form_forbidden'));
      await sql('update "forms" set "enabled" = true, "deleted_at" = now() where "id" = ?', [form.id]);
      expect(await both()).toEqual(Array(4).fill('403 form_forbidden'));
      await sql('update "forms" set "deleted_at" = null where "id" = ?', [form.id]);
      await sql('update "sites" set "deleted_at" = now() where "id" = ?', [siteId]);
      expect(await both()).toEqual(Array(4).fill('403 token_invalid'));
    });
  });

  it('rotateSiteToken: the old token is refused at once by both gateways, the new one accepted', async () => {
    const { siteId, token, form } = await siteWithForm();
    expect(await outcomes(form.code, token)).toEqual(['201', '201']);
    const { rotateSiteToken } = await gql('mutation($s: ID!) { rotateSiteToken(siteId: $s) { token } }', { s: siteId });
    expect(await outcomes(form.code, token)).toEqual(['403 token_invalid', '403 token_invalid']);
    expect(await outcomes(form.code, rotateSiteToken.token)).toEqual(['201', '201']);
  });

  it('updateForm: disabling is refused at once by both gateways, enabling accepted again', async () => {
    const { token, form } = await siteWithForm();
    expect(await outcomes(form.code, token)).toEqual(['201', '201']);
    await gql('mutation($f: ID!) { updateForm(id: $f, input: { enabled: false }) { id } }', { f: form.id });
    expect(await outcomes(form.code, token)).toEqual(['403 form_forbidden', '403 form_forbidden']);
    // Opening again is not a security matter: it applies as soon as the change feed tells.
    await gql('mutation($f: ID!) { updateForm(id: $f, input: { enabled: true }) { id } }', { f: form.id });
    expect(await eventually(() => outcomes(form.code, token), '201')).toEqual(['201', '201']);
  });

  // Settings are not re-checked by the write (security is): they apply as soon as the change is heard.
  it('updateForm: narrowed file types apply as soon as the change feed tells', async () => {
    const { token, form } = await siteWithForm();
    expect(await outcomes(form.code, token, withPdf)).toEqual(['201', '201']);
    await gql('mutation($f: ID!) { updateForm(id: $f, input: { allowedMimeTypes: ["image/png"] }) { id } }', {
      f: form.id,
    });
    expect(await eventually(() => outcomes(form.code, token, withPdf), '400 file_type_not_allowed')).toEqual([
      '400 file_type_not_allowed',
      '400 file_type_not_allowed',
    ]);
  });

  it('deleteForm is refused at once by both gateways', async () => {
    const { token, form } = await siteWithForm();
    expect(await outcomes(form.code, token)).toEqual(['201', '201']);
    expect(await gql('mutation($f: ID!) { deleteForm(id: $f) }', { f: form.id })).toEqual({ deleteForm: true });
    expect(await outcomes(form.code, token)).toEqual(['403 form_forbidden', '403 form_forbidden']);
  });

  it('deleteSite is refused at once by both gateways', async () => {
    const { siteId, token, form } = await siteWithForm();
    expect(await outcomes(form.code, token)).toEqual(['201', '201']);
    expect(await gql('mutation($s: ID!) { deleteSite(id: $s) }', { s: siteId })).toEqual({ deleteSite: true });
    expect(await outcomes(form.code, token)).toEqual(['403 token_invalid', '403 token_invalid']);
  });

  it('a change committed while a gateway reads the old row is not cached over', async () => {
    const { token, form } = await siteWithForm();
    // Cold caches, many reads and a change in flight together: whatever the interleaving, the change
    // wins once told (a copy cached over it would live on for 30 s).
    const reads = Array.from({ length: 10 }, () => outcomes(form.code, token, withPdf));
    const change = services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { allowedMimeTypes: ['image/png'] });
    await Promise.all([...reads, change]);
    expect(await eventually(() => outcomes(form.code, token, withPdf), '400 file_type_not_allowed')).toEqual([
      '400 file_type_not_allowed',
      '400 file_type_not_allowed',
    ]);
  });

  it('createWebhook and updateWebhook reach both gateways with the change feed; deleteWebhook at once', async () => {
    const { token, form } = await siteWithForm();
    // Both caches now hold the form with no webhooks.
    expect(await webhookDeliveries(form.code, token)).toEqual(['0', '0']);
    const webhookId = await createWebhook(form.id);
    // PGlite tells during the COMMIT, before the admin API answers; PostgreSQL a moment after.
    const created = onPostgres ? await eventually(() => webhookDeliveries(form.code, token), '1') : null;
    expect(created ?? (await webhookDeliveries(form.code, token))).toEqual(['1', '1']);
    await gql('mutation($w: ID!) { updateWebhook(id: $w, input: { enabled: false }) { id } }', { w: webhookId });
    const disabled = onPostgres ? await eventually(() => webhookDeliveries(form.code, token), '0') : null;
    expect(disabled ?? (await webhookDeliveries(form.code, token))).toEqual(['0', '0']);
    await gql('mutation($w: ID!) { updateWebhook(id: $w, input: { enabled: true }) { id } }', { w: webhookId });
    const enabled = onPostgres ? await eventually(() => webhookDeliveries(form.code, token), '1') : null;
    expect(enabled ?? (await webhookDeliveries(form.code, token))).toEqual(['1', '1']);
    // A deleted webhook cannot take a delivery row (foreign key): the next submission is accepted
    // without one on both gateways, whether or not the news has arrived.
    expect(await gql('mutation($w: ID!) { deleteWebhook(id: $w) }', { w: webhookId })).toEqual({ deleteWebhook: true });
    expect(await webhookDeliveries(form.code, token)).toEqual(['0', '0']);
  });

  it('a webhook disabled or deleted that no gateway was told of breaks no submission', async () => {
    const { token, form } = await siteWithForm();
    const webhookId = await createWebhook(form.id);
    const created = onPostgres ? await eventually(() => webhookDeliveries(form.code, token), '1') : null;
    expect(created ?? (await webhookDeliveries(form.code, token))).toEqual(['1', '1']);
    await withoutTriggers(async () => {
      // Disabled unheard: both caches still list it, so its deliveries are queued; the worker fails
      // them without a request.
      await sql('update "webhooks" set "enabled" = false where "id" = ?', [webhookId]);
      expect(await webhookDeliveries(form.code, token)).toEqual(['1', '1']);
      const worker = createDeliveryWorker(services, { batchSize: 100 });
      try {
        await worker.runOnce();
      } finally {
        await worker.close();
      }
      const em = services.db.em.fork();
      const deliveries = await em.find(DeliverySchema, { webhook: webhookId });
      expect(deliveries.length).toBeGreaterThanOrEqual(4);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(deliveries.map(() => 'failed'));
      const attempts = await em.find(DeliveryAttemptSchema, { delivery: { $in: deliveries.map(({ id }) => id) } });
      expect(new Set(attempts.map((attempt) => attempt.error))).toEqual(new Set(['webhook is disabled']));
      // Deleted unheard: the cached id breaks the delivery's foreign key; the write reads the
      // webhooks afresh and stores the submission without it.
      await sql('delete from "webhooks" where "id" = ?', [webhookId]);
      expect(await webhookDeliveries(form.code, token)).toEqual(['0', '0']);
    });
  });

  (onPostgres ? it : it.skip)(
    'a lost change feed empties the cache and bypasses it until it listens again (PostgreSQL only: PGlite has no connection to lose)',
    async () => {
      const { siteId, token, form } = await siteWithForm();
      expect(await outcomes(form.code, token, withPdf)).toEqual(['201', '201']);
      await sql(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ?',
        [SITE_CHANGES_APPLICATION_NAME],
      );
      await until(() => gateways.every((gateway) => !gateway.siteCache.caching), 'both feeds know they are blind');
      // Deaf, and with the triggers off: only a lookup in the database can see this change.
      await withoutTriggers(() =>
        sql('update "forms" set "allowed_mime_types" = ? where "id" = ?', ['{image/png}', form.id]),
      );
      expect(await outcomes(form.code, token, withPdf)).toEqual([
        '400 file_type_not_allowed',
        '400 file_type_not_allowed',
      ]);
      await until(() => gateways.every((gateway) => gateway.siteCache.caching), 'both feeds listen again');
      // Listening again: cached answers, and changes told, as before.
      expect(await outcomes(form.code, token)).toEqual(['201', '201']);
      await gql('mutation($s: ID!) { rotateSiteToken(siteId: $s) { token } }', { s: siteId });
      expect(await outcomes(form.code, token)).toEqual(['403 token_invalid', '403 token_invalid']);
    },
  );
});
