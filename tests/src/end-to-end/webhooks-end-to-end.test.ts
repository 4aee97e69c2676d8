// Webhooks and e-mail notifications end to end: an administrator adds a webhook and notification
// addresses in the admin API, a site backend posts a submission with a file to the gateway, and the
// delivery worker brings it to a receiver that verifies the signature with the standardwebhooks
// package (the file downloadable through the signed link in the payload) and to a real SMTP inbox.
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { DeliverySchema } from '@intake/shared/entities';
import type { RunningServer } from '@intake/shared/http';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';
import {
  createTestServices,
  graphqlData,
  startSmtpInbox,
  startWebhookReceiver,
  testDriverName,
  type SmtpInbox,
  type WebhookReceiver,
} from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { footprint, send } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

jest.setTimeout(60_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
let inbox: SmtpInbox;
let adminToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  inbox = await startSmtpInbox();
  services = await createTestServices({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SMTP_URL: inbox.url,
    DELIVERY_POLL_INTERVAL_MS: '50',
  });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  // As `npm start` runs it: beside both services, links pointing at this admin.
  worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url });
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
  await inbox?.close();
});

describe(`webhooks and e-mail end to end on ${testDriverName()}`, () => {
  it('a submission posted to the gateway reaches a signed webhook and an SMTP inbox; a refused one reaches neither', async () => {
    const { createSite } = await gql('mutation { createSite(input: { name: "Shop" }) { id } }');
    const { createForm } = await gql(
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact", notifyEmails: ["team@example.com"] }) { id code notifyEmails } }',
      { s: createSite.id },
    );
    expect(createForm.notifyEmails).toEqual(['team@example.com']);
    const { createWebhook } = await gql(
      'mutation($f: ID!, $u: String!) { createWebhook(input: { formId: $f, url: $u, description: "CRM" }) { secret webhook { id } } }',
      { f: createForm.id, u: `${receiver.url}/intake` },
    );
    receiver.secret = createWebhook.secret;
    const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
    const apiKey = services.config.apiKey;

    // Refused: nothing stored, so nothing to deliver.
    const before = await footprint(services);
    const refused = await send(gateway.url, createForm.code, {
      apiKey,
      token: siteApiView.token,
      json: '{"__proto__": {"x": 1}}',
    });
    expect(refused.status).toBe(400);
    expect(await footprint(services)).toEqual(before);
    expect(await services.db.em.fork().count(DeliverySchema, {})).toBe(0);

    const bytes = pdf();
    const body = new FormData();
    body.append('name', 'Grace <i>Hopper</i>');
    body.append('message', 'Bugs & moths');
    body.append('fichier', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'rapport.pdf');
    const response = await send(gateway.url, createForm.code, { apiKey, token: siteApiView.token, body });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { id: string; files: { id: string; sha256: string }[] };

    await receiver.waitFor(1);
    await inbox.waitFor(1);
    const [request] = receiver.received;
    expect(request!.verified).toBe(true);
    expect(request!.path).toBe('/intake');
    expect(request!.json).toEqual({
      type: 'submission.created',
      timestamp: expect.any(String),
      data: {
        submissionId: answer.id,
        formId: createForm.id,
        siteId: createSite.id,
        createdAt: expect.any(String),
        data: { name: 'Grace Hopper', message: 'Bugs &amp; moths' },
        // `<i>` was removed; `&` only escaped.
        sanitizedFields: ['name'],
        files: [
          expect.objectContaining({
            id: answer.files[0]!.id,
            field: 'fichier',
            name: 'rapport.pdf',
            mimeType: 'application/pdf',
            size: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            downloadUrl: expect.stringMatching(new RegExp(`^${admin.url}/files/`)),
          }),
        ],
      },
    });
    // The signed link in the payload answers the stored bytes without other credentials.
    const download = await fetch(request!.json.data.files[0].downloadUrl);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const [mail] = inbox.messages;
    expect(mail!.to).toEqual(['team@example.com']);
    expect(mail!.raw).not.toMatch(/text\/html/i);
    expect(mail!.text).toContain('name: Grace Hopper');
    expect(mail!.text).toContain('message: Bugs & moths');
    expect(mail!.text).toContain('- rapport.pdf (application/pdf');
    expect(mail!.text).not.toContain('%PDF');

    // Recorded as delivered, once each.
    const { deliveries } = await gql('query($w: ID!) { deliveries(webhookId: $w) { status attemptCount } }', {
      w: createWebhook.webhook.id,
    });
    expect(deliveries).toEqual([{ status: 'SUCCEEDED', attemptCount: 1 }]);
    const { emailDeliveries } = await gql('query($f: ID!) { emailDeliveries(formId: $f) { status recipients } }', {
      f: createForm.id,
    });
    expect(emailDeliveries).toEqual([{ status: 'SUCCEEDED', recipients: ['team@example.com'] }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
    expect(inbox.messages).toHaveLength(1);
  });

  it('the e-mail names the form and the site, replies to the declared EMAIL field and links to the console', async () => {
    const { createSite } = await gql('mutation { createSite(input: { name: "Hotel Ostende" }) { id } }');
    const { createForm } = await gql(
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Front desk", notifyEmails: ["desk@example.com"] }) { id code } }',
      { s: createSite.id },
    );
    await gql(
      'mutation($f: ID!) { updateForm(id: $f, input: { fields: [{ name: "message", type: TEXT }, { name: "contact", type: EMAIL }] }) { id } }',
      { f: createForm.id },
    );
    const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
    const before = inbox.messages.length;
    const response = await send(gateway.url, createForm.code, {
      apiKey: services.config.apiKey,
      token: siteApiView.token,
      json: JSON.stringify({ message: 'A room for two', contact: "o'brien@example.org" }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };

    await inbox.waitFor(before + 1);
    const mail = inbox.messages[before]!;
    expect(mail.subject).toBe('New submission to Front desk (Hotel Ostende)');
    expect(mail.raw).toMatch(/^Reply-To: o'brien@example\.org\r?$/m);
    const page = `${admin.url}/sites/${createSite.id}/forms/${createForm.id}/submissions/${id}`;
    expect(mail.text).toContain(`Open it in the console: ${page}\n`);
    // A deep link the console answers (the page itself then asks for a sign-in).
    const consolePage = await fetch(page);
    expect(consolePage.status).toBe(200);
    expect(consolePage.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
