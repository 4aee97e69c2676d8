// Webhooks and the delivery log through the admin API, with a real delivery worker and a real
// receiver on loopback that verifies signatures with the standardwebhooks package.
import { jest } from '@jest/globals';
import { enqueueSubmissionDeliveries } from '@intake/shared/delivery';
import { FormSchema, SubmissionSchema, WebhookSchema, type Form } from '@intake/shared/entities';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';
import { answer, startWebhookReceiver, testDriverName, type WebhookReceiver } from '@intake/shared/test';
import { startAdmin, type AdminServer } from '@intake/admin-api';
import { codes, graphqlRequest, makeForm, makeSite, startTestAdmin, type TestAdmin } from '@intake/admin-api/test';

jest.setTimeout(60_000);

const WEBHOOK_FIELDS =
  'id formId url description enabled disabledAt disabledReason failingSince lastSuccessAt createdAt updatedAt';
const DELIVERY_FIELDS =
  'id channel webhookId formId submissionId eventType recipients status attemptCount nextAttemptAt lastAttemptAt completedAt createdAt attempts { number startedAt durationMs succeeded statusCode error response }';

interface WebhookView {
  id: string;
  formId: string;
  url: string;
  description: string | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
}

interface AttemptView {
  number: number;
  durationMs: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
}

interface DeliveryView {
  id: string;
  channel: string;
  webhookId: string | null;
  eventType: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attemptCount: number;
  nextAttemptAt: string | null;
  completedAt: string | null;
  recipients: string[] | null;
  submissionId: string | null;
  attempts: AttemptView[];
}

describe(`webhooks in the admin API on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let form: Form;
  let receiver: WebhookReceiver;
  let worker: DeliveryWorker;

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);

  const createWebhook = async (url: string, description: string | null = 'CRM') => {
    const result = await gql<{ createWebhook: { secret: string; webhook: WebhookView } }>(
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK_FIELDS} } } }`,
      { input: { formId: form.id, url, description } },
    );
    expect(result.errors).toBeUndefined();
    return result.data!.createWebhook;
  };

  const deliveries = async (webhookId: string, status?: string) => {
    const result = await gql<{ deliveries: DeliveryView[] }>(
      `query($id: ID!, $status: DeliveryStatus) { deliveries(webhookId: $id, status: $status) { ${DELIVERY_FIELDS} } }`,
      { id: webhookId, status },
    );
    expect(result.errors).toBeUndefined();
    return result.data!.deliveries;
  };

  const sendTest = async (webhookId: string) => {
    const result = await gql<{ sendTestWebhook: DeliveryView }>(
      `mutation($id: ID!) { sendTestWebhook(id: $id) { ${DELIVERY_FIELDS} } }`,
      { id: webhookId },
    );
    return result;
  };

  /** Runs the worker until nothing is due any more (retries are 20 ms apart here). */
  const drain = async () => {
    for (let round = 0; round < 20; round += 1) {
      if ((await worker.runOnce()) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        if ((await worker.runOnce()) === 0) {
          return;
        }
      }
    }
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    admin = await startTestAdmin({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    token = await admin.login();
    const { site } = await makeSite(admin.services);
    form = await makeForm(admin.services, site);
    worker = createDeliveryWorker(admin.services, {
      retryScheduleMs: [20, 20],
      publicAdminOrigin: () => admin.url,
    });
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await receiver?.close();
    await admin?.close();
  }, 30_000);

  it('creates a webhook and shows its secret once; the list never shows it', async () => {
    const created = await createWebhook(`${receiver.url}/hooks/crm`);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.webhook).toEqual(
      expect.objectContaining({
        formId: form.id,
        url: `${receiver.url}/hooks/crm`,
        description: 'CRM',
        enabled: true,
        disabledReason: null,
        failingSince: null,
      }),
    );
    const list = await gql<{ webhooks: WebhookView[] }>(
      `query($id: ID!) { webhooks(formId: $id) { ${WEBHOOK_FIELDS} } }`,
      {
        id: form.id,
      },
    );
    expect(list.data?.webhooks.map((webhook) => webhook.id)).toContain(created.webhook.id);
    const secretField = await gql(`query($id: ID!) { webhooks(formId: $id) { id secret } }`, { id: form.id });
    expect(codes(secretField)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    // Stored sealed, never in clear.
    const row = await admin.services.db.em.fork().findOneOrFail(WebhookSchema, { id: created.webhook.id });
    expect(row.sealedSecret).not.toContain(created.secret.slice(6, 20));
  });

  it('refuses bad URLs, descriptions and unknown forms', async () => {
    for (const url of [
      'ftp://example.com/x',
      'not a url',
      'https://user:pass@example.com/x',
      'https://example.com/x#frag',
      `https://example.com/${'a'.repeat(2100)}`,
      '',
    ]) {
      const result = await gql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`, {
        input: { formId: form.id, url },
      });
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    }
    const description = await gql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`, {
      input: { formId: form.id, url: 'https://example.com/x', description: 'x'.repeat(501) },
    });
    expect(codes(description)).toEqual(['BAD_USER_INPUT']);
    const unknown = await gql(`mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`, {
      input: { formId: '00000000-0000-4000-8000-000000000000', url: 'https://example.com/x' },
    });
    expect(codes(unknown)).toEqual(['NOT_FOUND']);
  });

  it('refuses private and loopback addresses when WEBHOOK_ALLOW_PRIVATE is off', async () => {
    const strict = admin.services.config;
    const server: AdminServer = await startAdmin({
      ...admin.services,
      config: { ...strict, delivery: { ...strict.delivery, allowPrivateAddresses: false } },
    });
    try {
      for (const url of [
        'http://127.0.0.1/x',
        'http://10.0.0.1/x',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/x',
        'http://localhost:8080/x',
      ]) {
        const result = await graphqlRequest(
          server.url,
          `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`,
          { input: { formId: form.id, url } },
          token,
        );
        expect(codes(result)).toEqual(['BAD_USER_INPUT']);
        // Names the setting that allows such addresses, and echoes nothing of the URL.
        const message = result.errors?.[0]?.message ?? '';
        expect(message).toMatch(/loopback, private, link-local/);
        expect(message).toContain('WEBHOOK_ALLOW_PRIVATE=true');
        expect(message).not.toContain(new URL(url).hostname);
      }
      const fine = await graphqlRequest(
        server.url,
        `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }`,
        { input: { formId: form.id, url: 'https://hooks.example.com/intake' } },
        token,
      );
      expect(fine.errors).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('needs authentication', async () => {
    const result = await admin.gql(`query($id: ID!) { webhooks(formId: $id) { id } }`, { id: form.id });
    expect(codes(result)).toEqual(['UNAUTHENTICATED']);
  });

  it('sends a signed test event, and rotation changes the secret the receiver must use', async () => {
    const created = await createWebhook(receiver.url);
    receiver.secret = created.secret;
    const before = receiver.received.length;
    const queued = await sendTest(created.webhook.id);
    expect(queued.errors).toBeUndefined();
    expect(queued.data?.sendTestWebhook).toEqual(
      expect.objectContaining({ eventType: 'webhook.test', status: 'PENDING', webhookId: created.webhook.id }),
    );
    await drain();
    const first = receiver.received[before]!;
    expect(first.verified).toBe(true);
    expect(first.json).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: expect.objectContaining({ webhookId: created.webhook.id, formId: form.id }),
    });

    const rotated = await gql<{ rotateWebhookSecret: { secret: string; webhook: WebhookView } }>(
      `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id } } }`,
      { id: created.webhook.id },
    );
    const newSecret = rotated.data!.rotateWebhookSecret.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(created.secret);
    // Still checking with the old secret: the next event does not verify; with the new one it does.
    await sendTest(created.webhook.id);
    await drain();
    expect(receiver.received.at(-1)!.verified).toBe(false);
    receiver.secret = newSecret;
    await sendTest(created.webhook.id);
    await drain();
    expect(receiver.received.at(-1)!.verified).toBe(true);
  });

  it('lists deliveries with their attempts, filters by status, and redelivers a failed one', async () => {
    const created = await createWebhook(receiver.url);
    receiver.secret = created.secret;
    // Three failures use up the schedule ([20, 20]): FAILED.
    receiver.plan(answer(500, 'boom'), answer(502, 'x'.repeat(3000)), answer(404, 'gone'));
    await sendTest(created.webhook.id);
    await drain();
    const failed = await deliveries(created.webhook.id, 'FAILED');
    expect(failed).toHaveLength(1);
    const delivery = failed[0]!;
    expect(delivery).toEqual(
      expect.objectContaining({
        status: 'FAILED',
        attemptCount: 3,
        nextAttemptAt: null,
        completedAt: expect.any(String),
      }),
    );
    expect(delivery.attempts.map((attempt) => [attempt.number, attempt.statusCode, attempt.succeeded])).toEqual([
      [1, 500, false],
      [2, 502, false],
      [3, 404, false],
    ]);
    expect(delivery.attempts[0]!.response).toBe('boom');
    expect(delivery.attempts[1]!.response).toHaveLength(1024);
    expect(delivery.attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);
    expect(await deliveries(created.webhook.id, 'SUCCEEDED')).toHaveLength(0);
    const webhookAfterFailures = await gql<{ webhook: WebhookView }>(
      `query($id: ID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`,
      { id: created.webhook.id },
    );
    expect(webhookAfterFailures.data?.webhook.failingSince).toEqual(expect.any(String));
    expect(webhookAfterFailures.data?.webhook.enabled).toBe(true);

    const before = receiver.received.length;
    const replay = await gql<{ redeliver: DeliveryView }>(
      `mutation($id: ID!) { redeliver(deliveryId: $id) { ${DELIVERY_FIELDS} } }`,
      { id: delivery.id },
    );
    expect(replay.errors).toBeUndefined();
    expect(replay.data?.redeliver).toEqual(expect.objectContaining({ id: delivery.id, status: 'PENDING' }));
    await drain();
    const succeeded = await deliveries(created.webhook.id, 'SUCCEEDED');
    expect(succeeded.map((entry) => entry.id)).toEqual([delivery.id]);
    expect(succeeded[0]!.attempts.map((attempt) => attempt.succeeded)).toEqual([false, false, false, true]);
    expect(receiver.received.slice(before).map((request) => request.headers['webhook-id'])).toEqual([delivery.id]);
    expect(receiver.received.at(-1)!.verified).toBe(true);
    expect(await deliveries(created.webhook.id)).toHaveLength(1);
    expect(await deliveries(created.webhook.id, 'FAILED')).toHaveLength(0);

    const unknown = await gql(`mutation($id: ID!) { redeliver(deliveryId: $id) { id } }`, {
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(codes(unknown)).toEqual(['NOT_FOUND']);
  });

  it('shows a webhook disabled after failing for days, refuses to use it, and re-enables it', async () => {
    const created = await createWebhook(receiver.url);
    // Its failures started six days ago (as if the receiver had been down since).
    await admin.services.db.em
      .fork()
      .nativeUpdate(WebhookSchema, { id: created.webhook.id }, { failingSince: new Date(Date.now() - 6 * 86_400_000) });
    receiver.plan(answer(500));
    await sendTest(created.webhook.id);
    await worker.runOnce();
    const shown = await gql<{ webhooks: WebhookView[] }>(
      `query($id: ID!) { webhooks(formId: $id) { ${WEBHOOK_FIELDS} } }`,
      {
        id: form.id,
      },
    );
    const disabled = shown.data!.webhooks.find((webhook) => webhook.id === created.webhook.id)!;
    expect(disabled).toEqual(
      expect.objectContaining({
        enabled: false,
        disabledAt: expect.any(String),
        disabledReason: expect.stringMatching(/failed for more than/),
      }),
    );
    expect(codes(await sendTest(created.webhook.id))).toEqual(['BAD_USER_INPUT']);
    const [last] = await deliveries(created.webhook.id);
    const refusedReplay = await gql(`mutation($id: ID!) { redeliver(deliveryId: $id) { id } }`, { id: last!.id });
    expect(codes(refusedReplay)).toEqual(['BAD_USER_INPUT']);

    const enabled = await gql<{ updateWebhook: WebhookView }>(
      `mutation($id: ID!) { updateWebhook(id: $id, input: { enabled: true }) { ${WEBHOOK_FIELDS} } }`,
      { id: created.webhook.id },
    );
    expect(enabled.data?.updateWebhook).toEqual(
      expect.objectContaining({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null }),
    );
    expect((await sendTest(created.webhook.id)).errors).toBeUndefined();
  });

  it('updates url, description and enabled, validating first', async () => {
    const created = await createWebhook(receiver.url);
    const update = (input: Record<string, unknown>) =>
      gql<{ updateWebhook: WebhookView }>(
        `mutation($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`,
        { id: created.webhook.id, input },
      );
    const changed = await update({ url: `${receiver.url}/v2`, description: '  New  ' });
    expect(changed.data?.updateWebhook).toEqual(
      expect.objectContaining({ url: `${receiver.url}/v2`, description: 'New' }),
    );
    expect(codes(await update({ url: 'gopher://x', description: 'ignored' }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await update({ url: null }))).toEqual(['BAD_USER_INPUT']);
    const off = await update({ enabled: false, description: null });
    expect(off.data?.updateWebhook).toEqual(
      expect.objectContaining({ enabled: false, description: null, disabledReason: 'disabled by an administrator' }),
    );
    // A disabled webhook gets no deliveries for new submissions.
    const em = admin.services.db.em.fork();
    const submission = em.create(SubmissionSchema, { form: em.getReference(FormSchema, form.id), data: { a: 1 } });
    await enqueueSubmissionDeliveries(em, await em.findOneOrFail(FormSchema, { id: form.id }), submission);
    await em.flush();
    expect(await deliveries(created.webhook.id)).toHaveLength(0);
  });

  it('deletes a webhook with its deliveries', async () => {
    const created = await createWebhook(receiver.url);
    await sendTest(created.webhook.id);
    const remove = (id: string) =>
      gql<{ deleteWebhook: boolean }>(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id });
    expect((await remove(created.webhook.id)).data?.deleteWebhook).toBe(true);
    expect((await remove(created.webhook.id)).data?.deleteWebhook).toBe(false);
    expect(
      codes(await gql(`query($id: ID!) { deliveries(webhookId: $id) { id } }`, { id: created.webhook.id })),
    ).toEqual(['NOT_FOUND']);
    const left = await admin.services.db.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from "deliveries" where "webhook_id" = ?`, [created.webhook.id]);
    expect(left).toEqual([{ n: 0 }]);
  });

  it('sets a form’s notification addresses, validated, and lists its e-mail deliveries', async () => {
    const update = (notifyEmails: unknown) =>
      gql<{ updateForm: { notifyEmails: string[] } }>(
        `mutation($id: ID!, $emails: [String!]) { updateForm(id: $id, input: { notifyEmails: $emails }) { notifyEmails } }`,
        { id: form.id, emails: notifyEmails },
      );
    const set = await update([' ops@example.com ', 'OPS@example.com', 'sales@example.co.uk']);
    expect(set.data?.updateForm.notifyEmails).toEqual(['ops@example.com', 'sales@example.co.uk']);
    for (const bad of [
      ['not an address'],
      ['a@b'],
      ['x@example.com\r\nBcc: victim@example.com'],
      ['"Name" <x@example.com>'],
      Array.from({ length: 11 }, (_, index) => `u${index}@example.com`),
    ]) {
      expect(codes(await update(bad))).toEqual(['BAD_USER_INPUT']);
    }
    const forms = await gql<{ forms: { id: string; notifyEmails: string[] }[] }>(
      `query($siteId: ID!) { forms(siteId: $siteId) { id notifyEmails } }`,
      { siteId: form.site.id },
    );
    expect(forms.data?.forms.find((entry) => entry.id === form.id)?.notifyEmails).toEqual([
      'ops@example.com',
      'sales@example.co.uk',
    ]);

    const em = admin.services.db.em.fork();
    const submission = em.create(SubmissionSchema, { form: em.getReference(FormSchema, form.id), data: { a: 1 } });
    await enqueueSubmissionDeliveries(em, await em.findOneOrFail(FormSchema, { id: form.id }), submission);
    await em.flush();
    const listed = await gql<{ emailDeliveries: DeliveryView[] }>(
      `query($id: ID!) { emailDeliveries(formId: $id, status: PENDING) { ${DELIVERY_FIELDS} } }`,
      { id: form.id },
    );
    expect(listed.data?.emailDeliveries).toEqual([
      expect.objectContaining({
        channel: 'email',
        recipients: ['ops@example.com', 'sales@example.co.uk'],
        submissionId: submission.id,
        status: 'PENDING',
      }),
    ]);
    expect((await update(null)).data?.updateForm.notifyEmails).toEqual([]);
  });
});
