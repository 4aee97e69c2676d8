// Chat notifications end to end: an administrator adds one webhook per chat platform in the admin
// API, a site backend posts a submission with a file to the gateway, and the delivery worker brings
// each platform its own message, checked against that platform's documented schema (ajv) on a real
// receiver. A receiver that answers 500 is retried on the schedule and the delivery log shows it;
// redeliver and the test message go through the same outbox; the file's bytes are never sent.
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import type { RunningServer } from '@intake/shared/http';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';
import {
  answer,
  chatMessageProblems,
  createTestServices,
  graphqlData,
  startWebhookReceiver,
  testDriverName,
  type ChatPlatform,
  type WebhookReceiver,
} from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

jest.setTimeout(60_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };
const FORMATS: Record<ChatPlatform, string> = {
  slack: 'SLACK',
  mattermost: 'MATTERMOST',
  teams: 'TEAMS',
  discord: 'DISCORD',
  google_chat: 'GOOGLE_CHAT',
};

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
let adminToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  services = await createTestServices({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_POLL_INTERVAL_MS: '50',
  });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  // Short waits between attempts, so that a retry is seen within the test.
  worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url, retryScheduleMs: [50, 50, 50] });
  worker.start();
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  adminToken = login.token;
});

afterAll(async () => {
  await worker?.close();
  await gateway?.close();
  await admin?.close();
  await services?.close();
  await receiver?.close();
});

async function siteWithForm(siteName: string, formName: string) {
  const { createSite } = await gql('mutation($n: String!) { createSite(input: { name: $n }) { id } }', { n: siteName });
  const { createForm } = await gql(
    'mutation($s: ID!, $n: String!) { createForm(input: { siteId: $s, name: $n }) { id code } }',
    { s: createSite.id, n: formName },
  );
  const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
  return {
    siteId: createSite.id as string,
    form: createForm as { id: string; code: string },
    token: siteApiView.token,
  };
}

async function addWebhook(formId: string, path: string, format: string): Promise<{ id: string; format: string }> {
  const { createWebhook } = await gql(
    'mutation($f: ID!, $u: String!, $t: WebhookFormat) { createWebhook(input: { formId: $f, url: $u, format: $t }) { webhook { id format } } }',
    { f: formId, u: `${receiver.url}${path}`, t: format },
  );
  return createWebhook.webhook;
}

const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);

async function waitForPaths(paths: string[], count = 1): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!paths.every((path) => receivedAt(path).length >= count)) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${paths.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe(`chat notifications end to end on ${testDriverName()}`, () => {
  it("each platform's webhook receives its own message about a submission, in that platform's schema", async () => {
    const { siteId, form, token } = await siteWithForm('Hotel <Ostende>', 'Front desk & *bookings*');
    const hooks: Record<string, { id: string; format: string }> = {};
    for (const [platform, format] of Object.entries(FORMATS)) {
      hooks[platform] = await addWebhook(form.id, `/chat/${platform}`, format);
      expect(hooks[platform]!.format).toBe(format);
    }
    const { webhooks } = await gql('query($f: ID!) { webhooks(formId: $f) { format } }', { f: form.id });
    expect(webhooks.map((hook: { format: string }) => hook.format).sort()).toEqual(Object.values(FORMATS).sort());

    const bytes = pdf();
    const body = new FormData();
    body.append('name', 'Grace <i>Hopper</i>');
    body.append('message', '@everyone <!channel> a room for two & a cot');
    body.append('fichier', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'passport.pdf');
    const response = await send(gateway.url, form.code, { apiKey: services.config.apiKey, token, body });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };

    await waitForPaths(Object.keys(FORMATS).map((platform) => `/chat/${platform}`));
    const page = `${admin.url}/sites/${siteId}/forms/${form.id}/submissions/${id}`;
    for (const platform of Object.keys(FORMATS) as ChatPlatform[]) {
      const [request] = receivedAt(`/chat/${platform}`);
      expect(request!.headers['content-type']).toBe('application/json');
      expect({ platform, problems: chatMessageProblems(platform, request!.json) }).toEqual({ platform, problems: [] });
      expect(request!.body).toContain(page);
      expect(request!.body).toContain('Hopper');
      expect(request!.body).toContain('passport.pdf');
      // The file is named, never sent: no bytes, no download link.
      expect(request!.body).not.toContain('%PDF');
      expect(request!.body).not.toContain(bytes.subarray(0, 64).toString('base64'));
      expect(request!.body).not.toContain('/files/');
      // Not the Standard Webhooks event.
      expect(request!.json.type === 'submission.created').toBe(false);
    }
    expect(receivedAt('/chat/discord')[0]!.json.allowed_mentions).toEqual({ parse: [] });
    expect(receivedAt('/chat/slack')[0]!.body).not.toContain('<!channel>');
    expect(receivedAt('/chat/teams')[0]!.json.attachments[0].content.type).toBe('AdaptiveCard');

    const { deliveries } = await gql('query($w: ID!) { deliveries(webhookId: $w) { status attemptCount eventType } }', {
      w: hooks.slack!.id,
    });
    expect(deliveries).toEqual([{ status: 'SUCCEEDED', attemptCount: 1, eventType: 'submission.created' }]);
  });

  it('a platform that answers 500 is retried, the delivery log shows it, and redeliver sends it again', async () => {
    const { form, token } = await siteWithForm('Clinic', 'Appointments');
    const hook = await addWebhook(form.id, '/flaky/teams', 'TEAMS');
    receiver.plan(answer(500, 'Internal Server Error'));
    const response = await send(gateway.url, form.code, {
      apiKey: services.config.apiKey,
      token,
      json: JSON.stringify({ name: 'Ada' }),
    });
    expect(response.status).toBe(201);

    await waitForPaths(['/flaky/teams'], 2);
    const [first, second] = receivedAt('/flaky/teams');
    // The same message each time (built at send time from the same submission).
    expect(second!.body).toBe(first!.body);
    expect(chatMessageProblems('teams', second!.json)).toEqual([]);
    const query =
      'query($w: ID!) { deliveries(webhookId: $w) { id status attemptCount attempts { succeeded statusCode } } }';
    let log = (await gql(query, { w: hook.id })).deliveries;
    for (let round = 0; round < 100 && log[0].status !== 'SUCCEEDED'; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      log = (await gql(query, { w: hook.id })).deliveries;
    }
    expect(log).toEqual([
      {
        id: expect.any(String),
        status: 'SUCCEEDED',
        attemptCount: 2,
        attempts: [
          { succeeded: false, statusCode: 500 },
          { succeeded: true, statusCode: 200 },
        ],
      },
    ]);

    await gql('mutation($d: ID!) { redeliver(deliveryId: $d) { id } }', { d: log[0].id });
    await waitForPaths(['/flaky/teams'], 3);
    expect(chatMessageProblems('teams', receivedAt('/flaky/teams')[2]!.json)).toEqual([]);
  });

  it('the test message of a chat webhook is that platform’s message, linking to the form’s webhooks', async () => {
    const { siteId, form } = await siteWithForm('Shop', 'Contact');
    for (const [platform, format] of Object.entries(FORMATS)) {
      const hook = await addWebhook(form.id, `/test/${platform}`, format);
      await gql('mutation($w: ID!) { sendTestWebhook(id: $w) { id } }', { w: hook.id });
    }
    await waitForPaths(Object.keys(FORMATS).map((platform) => `/test/${platform}`));
    for (const platform of Object.keys(FORMATS) as ChatPlatform[]) {
      const [request] = receivedAt(`/test/${platform}`);
      expect(chatMessageProblems(platform, request!.json)).toEqual([]);
      expect(request!.body).toContain('Test message from Intake');
      expect(request!.body).toContain(`${admin.url}/sites/${siteId}/forms/${form.id}/webhooks`);
    }
  });

  it('the format can be changed, and an unknown one is refused with the field named', async () => {
    const { form } = await siteWithForm('Agency', 'Leads');
    const hook = await addWebhook(form.id, '/changed', 'SLACK');
    const { updateWebhook } = await gql(
      'mutation($w: ID!) { updateWebhook(id: $w, input: { format: STANDARD }) { format } }',
      { w: hook.id },
    );
    expect(updateWebhook.format).toBe('STANDARD');
    const refused = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({
        query: 'mutation($w: ID!) { updateWebhook(id: $w, input: { format: null }) { format } }',
        variables: { w: hook.id },
      }),
    });
    const answered = (await refused.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(refused.status).toBeLessThan(500);
    expect(answered.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answered.errors?.[0]?.message).toMatch(/format/);
  });
});
