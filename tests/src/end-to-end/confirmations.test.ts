// The confirmation to the person who submitted (issue #36, docs/confirmations.md), end to end: a form
// set through the admin API, submissions posted to the real gateway, the worker sending over SMTP to a
// real SMTP server. The message carries the headers that stop auto-replies and the submission's
// receipt, which docs/receipts.md's Node verifier accepts; it never carries text the visitor typed
// (a template that tries is refused when saved); spam gets none until marked "Not spam"; the limits
// per address and per form hold, the refused one recorded on the submission's page; bad settings are
// refused with the field at fault.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';
import type { RunningServer } from '@intake/shared/http';
import {
  createTestServices,
  graphqlData,
  graphqlRequest,
  REPO_ROOT,
  startSmtpInbox,
  testDriverName,
  type ReceivedMail,
  type SmtpInbox,
} from '@intake/shared/test';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';

jest.setTimeout(90_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };
const PER_ADDRESS = 2;
const PER_FORM = 3;

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let worker: DeliveryWorker;
let inbox: SmtpInbox;
let adminToken: string;
let siteId: string;
let siteToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

const FIELDS = [
  { name: 'email', type: 'EMAIL', required: true },
  { name: 'plan', type: 'CHOICE', choices: ['Basic', 'Pro & more'] },
  { name: 'seats', type: 'NUMBER' },
  { name: 'message', type: 'TEXT' },
  { name: 'website', type: 'TEXT' },
];
const TEMPLATE =
  'Hello,\n\nwe got your request for {{form}} at {{time}}: plan {{field:plan}}, {{field:seats}} seats.\nReference {{submission}}.';
const UPDATE = `mutation($id: ID!, $input: UpdateFormInput!) {
  updateForm(id: $id, input: $input) {
    confirmationEnabled confirmationEmailField confirmationSubject confirmationTemplate confirmationSafeFields
  }
}`;

/** A form with the declared fields, confirmations on with the template above; its id and code. */
async function confirmingForm(
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; code: string }> {
  const { createForm } = await gql(
    'mutation($s: ID!, $n: String!) { createForm(input: { siteId: $s, name: $n }) { id code } }',
    {
      s: siteId,
      n: name,
    },
  );
  await gql(UPDATE, {
    id: createForm.id,
    input: {
      fields: FIELDS,
      unknownFields: 'DROP',
      confirmationEnabled: true,
      confirmationEmailField: 'email',
      confirmationSubject: 'Your request to {{form}} ({{field:plan}})',
      confirmationTemplate: TEMPLATE,
      confirmationSafeFields: ['plan', 'seats'],
      ...extra,
    },
  });
  return createForm;
}

async function post(code: string, json: Record<string, unknown>): Promise<{ id: string; receipt: string }> {
  const response = await send(gateway.url, code, { apiKey: services.config.apiKey, token: siteToken, json });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; receipt: string };
}

interface DeliveryView {
  channel: string;
  target: string;
  status: string;
  lastError: string | null;
}

async function deliveriesOf(id: string): Promise<DeliveryView[]> {
  const { submission } = await gql<{ submission: { deliveries: DeliveryView[] } }>(
    'query($id: ID!) { submission(id: $id) { deliveries { channel target status lastError } } }',
    { id },
  );
  return submission.deliveries;
}

/** Waits until the submission's confirmation is no longer pending. */
async function settledConfirmation(id: string): Promise<DeliveryView> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const confirmation = (await deliveriesOf(id)).find((delivery) => delivery.channel === 'confirmation');
    if (confirmation && confirmation.status !== 'PENDING') {
      return confirmation;
    }
    if (Date.now() > deadline) {
      throw new Error(`the confirmation of ${id} did not settle: ${JSON.stringify(confirmation)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const mailsTo = (address: string): ReceivedMail[] => inbox.messages.filter((mail) => mail.to.includes(address));

/** The headers of a raw message (the top-level ones), unfolded. */
function headersOf(raw: string): Map<string, string> {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** The parts of a multipart message, each with its body decoded (base64, quoted-printable or as is). */
function partsOf(raw: string): Part[] {
  const boundary = /boundary="?([^";\s]+)"?/i.exec(headersOf(raw).get('content-type') ?? '')?.[1];
  if (!boundary) {
    throw new Error('not a multipart message');
  }
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const text = chunk.replace(/^\r\n/, '');
      const split = text.indexOf('\r\n\r\n');
      const headers = headersOf(`${text.slice(0, split)}\r\n\r\n`);
      const encoded = text.slice(split + 4).replace(/\r\n$/, '');
      const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
      const body =
        encoding === 'base64'
          ? Buffer.from(encoded, 'base64').toString('utf8')
          : encoding === 'quoted-printable'
            ? Buffer.from(
                encoded
                  .replace(/=\r\n/g, '')
                  .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
                'latin1',
              ).toString('utf8')
            : encoded;
      return { headers, body: body.replace(/\r\n/g, '\n') };
    });
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  services = await createTestServices({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: inbox.url,
    DELIVERY_POLL_INTERVAL_MS: '50',
    CONFIRMATION_MAX_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
    CONFIRMATION_MAX_PER_FORM_PER_HOUR: String(PER_FORM),
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
  const { createSite } = await gql('mutation { createSite(input: { name: "Shop" }) { id } }');
  siteId = createSite.id;
  const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: siteId });
  siteToken = siteApiView.token;
}, 90_000);

afterAll(async () => {
  await worker?.close();
  await gateway?.close();
  await admin?.close();
  await services?.close();
  await inbox?.close();
});

describe(`the confirmation to the submitter on ${testDriverName()}`, () => {
  const FREE_TEXT = 'Buy cheap pills at http://spam.example/now';

  it('arrives with the safe values only, the auto-reply headers and the receipt, shown on the submission', async () => {
    const form = await confirmingForm('Quote request');
    const answer = await post(form.code, {
      email: 'ada@example.com',
      plan: 'Pro & more',
      seats: 12,
      message: FREE_TEXT,
      website: 'evil.example',
    });
    expect(await settledConfirmation(answer.id)).toEqual({
      channel: 'confirmation',
      target: 'the submitter',
      status: 'SUCCEEDED',
      lastError: null,
    });
    const [mail] = mailsTo('ada@example.com');
    expect(mail).toBeDefined();
    const headers = headersOf(mail!.raw);
    expect(headers.get('auto-submitted')).toBe('auto-replied');
    expect(headers.get('x-auto-response-suppress')).toBe('All');
    expect(headers.get('precedence')).toBe('auto_reply');
    expect(headers.has('reply-to')).toBe(false);
    expect(headers.get('subject')).toContain('Quote request');

    const parts = partsOf(mail!.raw);
    const text = parts.find((part) => part.headers.get('content-type')?.startsWith('text/plain'))!.body;
    expect(text).toContain('we got your request for Quote request at ');
    expect(text).toContain('plan Pro & more, 12 seats.');
    expect(text).toContain(`Reference ${answer.id}.`);
    // Nothing the visitor typed as free text, anywhere in the message.
    for (const typed of [FREE_TEXT, 'spam.example', 'evil.example']) {
      expect(mail!.raw).not.toContain(typed);
    }
    const attachment = parts.find((part) => /filename="?receipt-/.test(part.headers.get('content-disposition') ?? ''));
    expect(attachment?.headers.get('content-disposition')).toContain(`receipt-${answer.id}.jws`);
    expect(attachment?.body.trim()).toBe(answer.receipt);
  });

  it('carries a receipt that the Node verifier of docs/receipts.md accepts', async () => {
    const form = await confirmingForm('Receipt check');
    const answer = await post(form.code, { email: 'grace@example.com', plan: 'Basic' });
    await settledConfirmation(answer.id);
    const [mail] = mailsTo('grace@example.com');
    const receipt = partsOf(mail!.raw)
      .find((part) => /receipt-/.test(part.headers.get('content-disposition') ?? ''))!
      .body.trim();
    const doc = await readFile(path.join(REPO_ROOT, 'docs/receipts.md'), 'utf8');
    const verifier = /```js\n(\/\/ verify-receipt\.mjs[\s\S]*?)```/.exec(doc)![1]!;
    // Inside the repository, so that the verifier's `import 'jose'` resolves as in a project.
    const dir = await mkdtemp(path.join(REPO_ROOT, 'node_modules/.cache-confirmation-receipt-'));
    try {
      await writeFile(path.join(dir, 'verify-receipt.mjs'), verifier);
      const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile('node', ['verify-receipt.mjs', gateway.url, receipt], { cwd: dir }, (error, stdout) => {
          resolve({ code: error ? 1 : 0, stdout });
        });
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(answer.id);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sends none for spam, and one once it is marked "Not spam"', async () => {
    const form = await confirmingForm('Spam check');
    await gql(UPDATE, { id: form.id, input: { honeypotFields: ['website'] } });
    const spam = await post(form.code, { email: 'linus@example.com', plan: 'Basic', website: 'filled by a bot' });
    await worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await deliveriesOf(spam.id)).toEqual([]);
    expect(mailsTo('linus@example.com')).toEqual([]);

    await gql('mutation($id: ID!) { markNotSpam(id: $id) { id } }', { id: spam.id });
    expect((await settledConfirmation(spam.id)).status).toBe('SUCCEEDED');
    expect(mailsTo('linus@example.com')).toHaveLength(1);
  });

  it('sends none once the form turns confirmations off', async () => {
    const form = await confirmingForm('Turned off');
    await gql(UPDATE, { id: form.id, input: { confirmationEnabled: false } });
    const off = await post(form.code, { email: 'off@example.com', plan: 'Basic' });
    expect(await deliveriesOf(off.id)).toEqual([]);
  });

  it(`sends at most ${PER_ADDRESS} an hour to one address, whatever the form, records the refusal, and forgets it on erasure`, async () => {
    const first = await confirmingForm('Address limit A');
    const second = await confirmingForm('Address limit B');
    const ids = [
      (await post(first.code, { email: 'Victim@Example.com', plan: 'Basic' })).id,
      (await post(second.code, { email: 'victim@example.com', plan: 'Basic' })).id,
      (await post(first.code, { email: 'VICTIM@example.com', plan: 'Basic' })).id,
    ];
    const settled = [];
    for (const id of ids) {
      settled.push(await settledConfirmation(id));
    }
    expect(settled.map((delivery) => delivery.status).sort()).toEqual(['FAILED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(settled.find((delivery) => delivery.status === 'FAILED')!.lastError).toBe(
      `rate limited: ${PER_ADDRESS} confirmations to this address in the hour`,
    );
    expect(
      inbox.messages.filter((mail) => mail.to.some((to) => to.toLowerCase() === 'victim@example.com')),
    ).toHaveLength(PER_ADDRESS);
    // The count is kept as a hash, never the address; erasing the person's submissions drops it.
    const scopes = async () =>
      (
        await services.db.em.getConnection().execute<{ scope: string }[]>('select "scope" from "confirmation_counts"')
      ).map((row) => row.scope);
    const victim = `address:${createHash('sha256').update('victim@example.com').digest('hex')}`;
    expect(await scopes()).toContain(victim);
    expect(JSON.stringify(await scopes())).not.toContain('victim@');
    const { erasureCandidates } = await gql<{ erasureCandidates: { id: string }[] }>(
      'query($v: String!) { erasureCandidates(value: $v) { id } }',
      { v: 'victim@example.com' },
    );
    expect(erasureCandidates.map((candidate) => candidate.id).sort()).toEqual([...ids].sort());
    await gql('mutation($ids: [ID!]!) { eraseSubmissions(ids: $ids) { erasedIds } }', { ids });
    expect(await scopes()).not.toContain(victim);
  });

  it(`sends at most ${PER_FORM} an hour for one form`, async () => {
    const form = await confirmingForm('Form limit');
    const ids = [];
    for (let index = 0; index <= PER_FORM; index++) {
      ids.push((await post(form.code, { email: `person${index}@example.org`, plan: 'Basic' })).id);
    }
    const statuses = [];
    for (const id of ids) {
      statuses.push(await settledConfirmation(id));
    }
    expect(statuses.filter((delivery) => delivery.status === 'SUCCEEDED')).toHaveLength(PER_FORM);
    expect(statuses.filter((delivery) => delivery.status === 'FAILED').map((delivery) => delivery.lastError)).toEqual([
      `rate limited: ${PER_FORM} confirmations of this form in the hour`,
    ]);
  });
});

describe(`confirmation settings refused on ${testDriverName()}`, () => {
  let formId: string;

  beforeAll(async () => {
    formId = (await confirmingForm('Settings')).id;
  });

  it.each([
    ['a free-text field as safe', { confirmationSafeFields: ['message'] }, 'input.confirmationSafeFields'],
    ['an EMAIL field as safe', { confirmationSafeFields: ['email'] }, 'input.confirmationSafeFields'],
    ['an undeclared safe field', { confirmationSafeFields: ['colour'] }, 'input.confirmationSafeFields'],
    [
      'a template repeating free text',
      { confirmationTemplate: 'You wrote: {{field:message}}' },
      'input.confirmationTemplate',
    ],
    ['a subject repeating free text', { confirmationSubject: 'Re: {{field:website}}' }, 'input.confirmationSubject'],
    ['an unknown placeholder', { confirmationTemplate: 'Hi {{name}}' }, 'input.confirmationTemplate'],
    ['a stray brace', { confirmationTemplate: 'Hi {{form}' }, 'input.confirmationTemplate'],
    ['an address field that is not EMAIL', { confirmationEmailField: 'message' }, 'input.confirmationEmailField'],
    ['confirmations without an address field', { confirmationEmailField: null }, 'input.confirmationEmailField'],
    ['a two-line subject', { confirmationSubject: 'Hello\nBcc: x@example.com' }, 'input.confirmationSubject'],
    ['fields that drop the safe ones', { fields: [{ name: 'email', type: 'EMAIL' }] }, 'input.fields'],
  ])('refuses %s as BAD_USER_INPUT naming the field, and changes nothing', async (_label, input, field) => {
    const refused = await graphqlRequest(admin.url, UPDATE, { id: formId, input }, adminToken);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    const { form } = await gql(
      'query($id: ID!) { form(id: $id) { confirmationTemplate confirmationSafeFields confirmationSubject } }',
      {
        id: formId,
      },
    );
    expect(form).toEqual({
      confirmationTemplate: TEMPLATE,
      confirmationSafeFields: ['plan', 'seats'],
      confirmationSubject: 'Your request to {{form}} ({{field:plan}})',
    });
  });
});
