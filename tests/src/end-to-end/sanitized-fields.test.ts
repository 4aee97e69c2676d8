// The sanitiser removes markup before storage and says so (issue #21): a submission posted to the
// real gateway with `if (a<b && c>d) {}` and `<b>bold</b>` in nested fields is stored with the paths
// of those values, and every reader is told: the admin API's submission(id), the webhook the worker
// delivers, the notification e-mail and the CSV, JSON and NDJSON exports. Escaping alone (`Tom &
// Jerry`, quotes, a lone `<`) is not a change and is not reported.
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
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
import { parse } from 'csv-parse/sync';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';

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
  worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url });
  worker.start();
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  adminToken = login.token;
}, 90_000);

afterAll(async () => {
  await worker?.close();
  await gateway?.close();
  await admin?.close();
  await services?.close();
  await receiver?.close();
  await inbox?.close();
});

const SENT = {
  message: 'if (a<b && c>d) {}',
  items: ['plain', 'Tom & Jerry', '<b>bold</b>'],
  contact: { name: `O'Brien said "hi" & a < b`, note: 'very <b>bold</b>' },
  'odd.key': '<i>x</i>',
};
const CHANGED = ['message', 'items[2]', 'contact.note', '["odd.key"]'];
const STORED = {
  message: 'if (ad) {}',
  items: ['plain', 'Tom &amp; Jerry', 'bold'],
  contact: { name: 'O&#39;Brien said &quot;hi&quot; &amp; a &lt; b', note: 'very bold' },
  'odd.key': 'x',
};

describe(`fields changed by the sanitiser, end to end on ${testDriverName()}`, () => {
  let formId: string;
  let changedId: string;
  let plainId: string;

  beforeAll(async () => {
    const { createSite } = await gql('mutation { createSite(input: { name: "Shop" }) { id } }');
    const { createForm } = await gql(
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact", notifyEmails: ["team@example.com"] }) { id code } }',
      { s: createSite.id },
    );
    formId = createForm.id;
    const { createWebhook } = await gql(
      'mutation($f: ID!, $u: String!) { createWebhook(input: { formId: $f, url: $u }) { secret } }',
      { f: formId, u: `${receiver.url}/intake` },
    );
    receiver.secret = createWebhook.secret;
    const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
    const post = async (json: Record<string, unknown>) => {
      const response = await send(gateway.url, createForm.code, {
        apiKey: services.config.apiKey,
        token: siteApiView.token,
        json,
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    changedId = await post(SENT);
    plainId = await post({ message: `Tom & Jerry, "quoted", O'Brien, a < b, I <3 it` });
  });

  it('answers the changed paths in submission(id), and none for text only escaped', async () => {
    const read = (id: string) =>
      gql('query($id: ID!) { submission(id: $id) { data sanitizedFields } }', { id }).then((r) => r.submission);
    expect(await read(changedId)).toEqual({ data: STORED, sanitizedFields: CHANGED });
    expect((await read(plainId)).sanitizedFields).toEqual([]);
  });

  it('tells the webhook receiver and the notification e-mail', async () => {
    await receiver.waitFor(2);
    await inbox.waitFor(2);
    const payloads = receiver.received.map((request) => request.json.data);
    const changed = payloads.find((data) => data.submissionId === changedId);
    expect(changed).toMatchObject({ data: STORED, sanitizedFields: CHANGED });
    expect(payloads.find((data) => data.submissionId === plainId)).toMatchObject({ sanitizedFields: [] });

    const mail = inbox.messages.find((message) => message.text.includes(changedId))!;
    expect(mail.text).toContain(`Markup removed by the XSS sanitiser: ${CHANGED.join(', ')}`);
    const plainMail = inbox.messages.find((message) => message.text.includes(plainId))!;
    expect(plainMail.text).not.toContain('Markup removed');
  });

  it('carries the changed paths in CSV, JSON and NDJSON exports', async () => {
    const download = async (format: string) => {
      const { createSubmissionExport } = await gql(
        'mutation($f: ID!, $format: SubmissionExportFormat!) { createSubmissionExport(formId: $f, format: $format) { url } }',
        { f: formId, format },
      );
      const response = await fetch(createSubmissionExport.url);
      expect(response.status).toBe(200);
      return response.text();
    };
    const fromJson = JSON.parse(await download('JSON')) as { id: string; sanitizedFields: string[] }[];
    const fromNdjson = (await download('NDJSON'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; sanitizedFields: string[] });
    for (const rows of [fromJson, fromNdjson]) {
      expect(rows.map((row) => [row.id, row.sanitizedFields])).toEqual([
        [plainId, []],
        [changedId, CHANGED],
      ]);
    }
    const [header, ...records] = parse(await download('CSV'), { bom: true }) as string[][];
    const column = header!.indexOf('sanitizedFields');
    expect(column).toBeGreaterThan(1);
    expect(records.map((record) => [record[0], record[column]])).toEqual([
      [plainId, ''],
      [changedId, CHANGED.join('\n')],
    ]);
  });
});
