// Spam protection end to end: forms configured through the admin API, submissions posted to a
// listening gateway, CAPTCHA answers verified against a local siteverify stub that speaks the
// providers' real format, and a real webhook receiver that must hear of spam only after an
// administrator marked it "Not spam".
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { DeliverySchema, FormSchema, SubmissionSchema } from '@intake/shared/entities';
import type { RunningServer } from '@intake/shared/http';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';
import {
  createTestServices,
  graphqlData,
  graphqlRequest,
  startWebhookReceiver,
  testDriverName,
  type WebhookReceiver,
} from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import {
  ANSWERS,
  closedPort,
  footprint,
  send,
  startSiteverifyStub,
  STUB_SECRET,
  withConfig,
  type SiteverifyStub,
} from '@intake/gateway/test';
import { png } from '@intake/test-files';

jest.setTimeout(60_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };
const TIMEOUT_MS = 400;

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
let stub: SiteverifyStub;
let adminToken: string;
let siteId: string;
let siteToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

const FORM_FIELDS = `id code honeypotFields captchaProvider captchaSecretSet captchaResponseField captchaMinScore
  captchaUnavailableAsSpam duplicateWindowSeconds maxLinks blockedWords`;

/** A new form of the test site with these settings, made before anything was sent to it (no cache). */
async function formWith(input: Record<string, unknown>): Promise<{ id: string; code: string; [key: string]: unknown }> {
  const { createForm } = await gql('mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact" }) { id } }', {
    s: siteId,
  });
  const { updateForm } = await gql(
    `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${FORM_FIELDS} } }`,
    {
      id: createForm.id,
      input,
    },
  );
  return updateForm;
}

function post(code: string, json: unknown, headers: Record<string, string> = {}, baseUrl = gateway.url) {
  return send(baseUrl, code, { apiKey: services.config.apiKey, token: siteToken, json, headers });
}

async function storedRow(id: string) {
  return services.db.em.fork().findOneOrFail(SubmissionSchema, { id });
}

async function metricValue(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

beforeAll(async () => {
  stub = await startSiteverifyStub(TIMEOUT_MS * 5);
  receiver = await startWebhookReceiver();
  services = await createTestServices({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_POLL_INTERVAL_MS: '50',
    CAPTCHA_TURNSTILE_VERIFY_URL: `${stub.url}/turnstile/v0/siteverify`,
    CAPTCHA_HCAPTCHA_VERIFY_URL: `${stub.url}/hcaptcha/siteverify`,
    CAPTCHA_RECAPTCHA_VERIFY_URL: `${stub.url}/recaptcha/api/siteverify`,
    CAPTCHA_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url });
  worker.start();
  adminToken = (
    await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
      e: ADMIN.email,
      p: ADMIN.password,
    })
  ).login.token;
  siteId = (await gql('mutation { createSite(input: { name: "Shop", domain: "shop.example" }) { id } }')).createSite.id;
  siteToken = (await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: siteId })).siteApiView.token;
});

afterAll(async () => {
  await worker?.close();
  await gateway?.close();
  await admin?.close();
  await services?.close();
  await receiver?.close();
  await stub?.close();
});

describe(`CAPTCHA verification on ${testDriverName()}`, () => {
  it('is off by default, and configured from the admin API with a write-only secret', async () => {
    const plain = await formWith({});
    expect(plain).toMatchObject({
      honeypotFields: [],
      captchaProvider: null,
      captchaSecretSet: false,
      captchaResponseField: null,
      captchaUnavailableAsSpam: false,
      duplicateWindowSeconds: null,
      maxLinks: null,
      blockedWords: [],
    });
    const form = await formWith({ captchaProvider: 'HCAPTCHA', captchaSecret: STUB_SECRET });
    expect(form).toMatchObject({
      captchaProvider: 'HCAPTCHA',
      captchaSecretSet: true,
      captchaResponseField: 'h-captcha-response',
    });
    // The secret is nowhere to be read back, and stored sealed.
    const introspection = await gql('{ __type(name: "Form") { fields { name } } }');
    expect(introspection.__type.fields.map((field: { name: string }) => field.name)).not.toContain('captchaSecret');
    const rows = await services.db.em
      .fork()
      .getConnection()
      .execute<{ captcha_sealed_secret: string }[]>('select "captcha_sealed_secret" from "forms" where "id" = ?', [
        form.id,
      ]);
    expect(rows[0]!.captcha_sealed_secret).not.toContain(STUB_SECRET);

    // A provider needs a secret; a secret needs a provider; bad values change nothing.
    const refusals = [
      { captchaProvider: 'TURNSTILE' },
      { captchaSecret: 'x' },
      { captchaMinScore: 1.5 },
      { duplicateWindowSeconds: 0 },
      { maxLinks: -1 },
      { honeypotFields: ['<b>'] },
      { blockedWords: [''] },
    ];
    for (const input of refusals) {
      const answer = await graphqlRequest(
        admin.url,
        'mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id } }',
        { id: plain.id, input },
        adminToken,
      );
      expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(answer.errors)).not.toContain(STUB_SECRET);
    }
    // Turning it off forgets the secret.
    const { updateForm: off } = await gql(
      `mutation($id: ID!) { updateForm(id: $id, input: { captchaProvider: null }) { ${FORM_FIELDS} } }`,
      {
        id: form.id,
      },
    );
    expect(off).toMatchObject({ captchaProvider: null, captchaSecretSet: false, captchaResponseField: null });
  });

  it.each([
    ['TURNSTILE', 'cf-turnstile-response', '/turnstile/v0/siteverify'],
    ['HCAPTCHA', 'h-captcha-response', '/hcaptcha/siteverify'],
    ['RECAPTCHA_V2', 'g-recaptcha-response', '/recaptcha/api/siteverify'],
  ])(
    '%s: a good answer is stored without its field, a bad or expired one is 400 captcha_invalid',
    async (provider, field, path) => {
      const form = await formWith({ captchaProvider: provider, captchaSecret: STUB_SECRET });
      const before = stub.requests.length;
      const good = await post(
        form.code,
        { name: 'Ada', [field]: ANSWERS.good },
        { 'X-Intake-Client-IP': '203.0.113.7' },
      );
      expect(good.status).toBe(201);
      const { id } = (await good.json()) as { id: string };
      const row = await storedRow(id);
      expect(row.data).toEqual({ name: 'Ada' });
      expect(row.spam).toBe(false);
      // The provider's real request: form-encoded secret, response and the visitor's address.
      expect(stub.requests[before]).toEqual({
        path,
        contentType: 'application/x-www-form-urlencoded',
        secret: STUB_SECRET,
        response: ANSWERS.good,
        remoteip: '203.0.113.7',
      });

      const prints = await footprint(services);
      for (const answer of [ANSWERS.bad, ANSWERS.expired, '']) {
        const refused = await post(form.code, { name: 'Bot', [field]: answer });
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await refused.json()) as { code: string; detail: string };
        expect(problem.code).toBe('captcha_invalid');
        expect(JSON.stringify(problem)).not.toContain(answer || 'bad-answer');
      }
      // Missing altogether: refused without asking the provider.
      const asked = stub.requests.length;
      const missing = await post(form.code, { name: 'Bot' });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { code: string }).code).toBe('captcha_invalid');
      expect(stub.requests.length).toBe(asked);
      expect(await footprint(services)).toEqual(prints);
    },
  );

  it('RECAPTCHA_V3: refuses a score under the minimum, accepts one above; an invalid client address is not sent', async () => {
    const form = await formWith({ captchaProvider: 'RECAPTCHA_V3', captchaSecret: STUB_SECRET, captchaMinScore: 0.7 });
    expect(form.captchaMinScore).toBeCloseTo(0.7);
    const low = await post(form.code, { 'g-recaptcha-response': ANSWERS.lowScore, name: 'x' });
    expect(low.status).toBe(400);
    expect(((await low.json()) as { code: string }).code).toBe('captcha_invalid');
    const high = await post(
      form.code,
      { 'g-recaptcha-response': ANSWERS.highScore, name: 'y' },
      {
        'X-Intake-Client-IP': 'not an address',
      },
    );
    expect(high.status).toBe(201);
    expect(stub.requests.at(-1)!.remoteip).toBeNull();
  });

  it('takes the answer from a field of the form’s choosing, in multipart bodies too, with a file', async () => {
    const form = await formWith({
      captchaProvider: 'TURNSTILE',
      captchaSecret: STUB_SECRET,
      captchaResponseField: 'captcha',
    });
    expect(form.captchaResponseField).toBe('captcha');
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('captcha', ANSWERS.good);
    body.append('picture', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'p.png');
    const response = await send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { id: string; files: unknown[] };
    expect(answer.files).toHaveLength(1);
    expect((await storedRow(answer.id)).data).toEqual({ name: 'Ada' });
  });

  it('a provider that is slow or down gives 503 captcha_unavailable, or spam when the form says so', async () => {
    const strict = await formWith({ captchaProvider: 'TURNSTILE', captchaSecret: STUB_SECRET });
    const lenient = await formWith({
      captchaProvider: 'TURNSTILE',
      captchaSecret: STUB_SECRET,
      captchaUnavailableAsSpam: true,
    });
    const prints = await footprint(services);
    const started = Date.now();
    const slow = await post(strict.code, { 'cf-turnstile-response': ANSWERS.slow });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    expect(slow.status).toBe(503);
    expect(slow.headers.get('retry-after')).toBe('5');
    expect(((await slow.json()) as { code: string }).code).toBe('captcha_unavailable');
    const failing = await post(strict.code, { 'cf-turnstile-response': ANSWERS.providerError });
    expect(failing.status).toBe(503);
    expect(await footprint(services)).toEqual(prints);

    const spam = await post(lenient.code, { 'cf-turnstile-response': ANSWERS.slow, name: 'Ada' });
    expect(spam.status).toBe(201);
    const row = await storedRow(((await spam.json()) as { id: string }).id);
    expect(row).toMatchObject({ spam: true, spamReason: 'captcha_unavailable', data: { name: 'Ada' } });

    // Down: nothing listens where the provider should be.
    const port = await closedPort();
    const downServices = withConfig(services, (config) => ({
      ...config,
      captcha: { ...config.captcha, turnstileVerifyUrl: `http://127.0.0.1:${port}/siteverify` },
    }));
    const downGateway = await startGateway(downServices);
    try {
      const down = await post(strict.code, { 'cf-turnstile-response': ANSWERS.good }, {}, downGateway.url);
      expect(down.status).toBe(503);
      expect(((await down.json()) as { code: string }).code).toBe('captcha_unavailable');
      const downSpam = await post(lenient.code, { 'cf-turnstile-response': ANSWERS.good, n: 1 }, {}, downGateway.url);
      expect(downSpam.status).toBe(201);
      expect((await storedRow(((await downSpam.json()) as { id: string }).id)).spamReason).toBe('captcha_unavailable');
    } finally {
      await downGateway.close();
    }
  });

  it('fails closed when a form names a provider but has no secret (a row the admin API would not leave)', async () => {
    const form = await formWith({});
    await services.db.em
      .fork()
      .nativeUpdate(FormSchema, { id: form.id }, { captchaProvider: 'turnstile', captchaSealedSecret: null });
    const before = stub.requests.length;
    const response = await post(form.code, { 'cf-turnstile-response': ANSWERS.good });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('captcha_unavailable');
    expect(stub.requests.length).toBe(before);
  });

  it('refuses a bad CAPTCHA before any file check, and keeps its connections to the provider alive', async () => {
    const form = await formWith({ captchaProvider: 'HCAPTCHA', captchaSecret: STUB_SECRET });
    const body = new FormData();
    body.append('h-captcha-response', ANSWERS.bad);
    body.append('f', new Blob(['MZ not allowed'], { type: 'application/x-msdownload' }), 'evil.exe');
    const response = await send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('captcha_invalid');

    const connections = stub.connections;
    for (let index = 0; index < 5; index += 1) {
      expect((await post(form.code, { 'h-captcha-response': ANSWERS.good, index })).status).toBe(201);
    }
    expect(stub.connections - connections).toBeLessThanOrEqual(1);
  });
});

describe(`spam rules on ${testDriverName()}`, () => {
  it('honeypot: any listed field non-empty is spam, answered exactly like a good submission', async () => {
    const form = await formWith({ honeypotFields: ['website', 'fax'] });
    expect(form.honeypotFields).toEqual(['website', 'fax']);
    const good = await post(form.code, { name: 'Ada', website: '' });
    const spam = await post(form.code, { name: 'Bot', fax: '555' });
    expect(spam.status).toBe(good.status);
    expect(good.status).toBe(201);
    const goodBody = (await good.json()) as Record<string, unknown>;
    const spamBody = (await spam.json()) as Record<string, unknown>;
    expect(Object.keys(spamBody)).toEqual(Object.keys(goodBody));
    expect([...spam.headers.keys()].sort()).toEqual([...good.headers.keys()].sort());
    expect(spam.headers.get('content-type')).toBe(good.headers.get('content-type'));
    expect((await storedRow(goodBody.id as string)).spam).toBe(false);
    expect(await storedRow(spamBody.id as string)).toMatchObject({ spam: true, spamReason: 'honeypot' });
  });

  it('honeypot: a bracket name (PHP style) fires as the form sent it, in JSON, urlencoded and multipart', async () => {
    const form = await formWith({ honeypotFields: ['contact[website]', 'extra[]'] });
    const sendAs = (format: 'json' | 'urlencoded' | 'multipart', pairs: [string, string][]) => {
      const headers: Record<string, string> = {};
      let body: BodyInit;
      if (format === 'json') {
        body = JSON.stringify(Object.fromEntries(pairs));
        headers['Content-Type'] = 'application/json';
      } else if (format === 'urlencoded') {
        body = new URLSearchParams(pairs).toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      } else {
        body = new FormData();
        for (const [name, value] of pairs) {
          body.append(name, value);
        }
      }
      return send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body, headers });
    };
    const verdict = async (response: Response) => {
      expect(response.status).toBe(201);
      return (await storedRow(((await response.json()) as { id: string }).id)).spamReason;
    };
    for (const format of ['json', 'urlencoded', 'multipart'] as const) {
      const cases: [[string, string][], string | null][] = [
        [
          [
            ['name', 'Bot'],
            ['contact[website]', 'http://spam.example'],
          ],
          'honeypot',
        ],
        [
          [
            ['name', 'Bot'],
            ['extra[]', 'x'],
          ],
          'honeypot',
        ],
        [
          [
            ['name', 'Ada'],
            ['contact[website]', ''],
          ],
          null,
        ],
        [
          [
            ['name', 'Ada'],
            ['contact[phone]', '555'],
          ],
          null,
        ],
      ];
      for (const [pairs, expected] of cases) {
        expect([format, pairs, await verdict(await sendAs(format, pairs))]).toEqual([format, pairs, expected]);
      }
    }
    // A site backend that parsed the PHP names and forwards them nested.
    expect(await verdict(await post(form.code, { name: 'Bot', contact: { website: 'x' } }))).toBe('honeypot');
    expect(await verdict(await post(form.code, { name: 'Ada', contact: { website: '' } }))).toBeNull();
  });

  it('honeypot: an empty object is no more filled than an empty list', async () => {
    const form = await formWith({ honeypotFields: ['website'] });
    const cases: [unknown, string | null][] = [
      [{}, null],
      [[], null],
      [{ url: '' }, null],
      [{ url: [] }, null],
      [{ url: 'x' }, 'honeypot'],
      [['x'], 'honeypot'],
    ];
    for (const [website, expected] of cases) {
      const response = await post(form.code, { name: 'Ada', website });
      const row = await storedRow(((await response.json()) as { id: string }).id);
      expect([website, row.spamReason]).toEqual([website, expected]);
    }
  });

  it('links: more than maxLinks across all values (nested, in markup) is spam', async () => {
    const form = await formWith({ maxLinks: 2 });
    const fine = await post(form.code, { a: 'see https://one.example and www.two.example', b: 'plain' });
    const tooMany = await post(form.code, {
      a: 'see https://one.example',
      nested: { list: ['<a href="http://two.example">x</a>', 'http://three.example/path'] },
    });
    expect((await storedRow(((await fine.json()) as { id: string }).id)).spam).toBe(false);
    expect(await storedRow(((await tooMany.json()) as { id: string }).id)).toMatchObject({
      spam: true,
      spamReason: 'links',
    });
  });

  it('blocked words: whole words and phrases, case-insensitive', async () => {
    const form = await formWith({ blockedWords: ['casino', 'cheap  pills'] });
    expect(form.blockedWords).toEqual(['casino', 'cheap pills']);
    const cases: [unknown, boolean][] = [
      [{ m: 'Best CASINO in town' }, true],
      [{ m: 'buy Cheap\n pills now' }, true],
      [{ m: 'casinos and occasional pills' }, false],
      [{ m: 'cheap, pills' }, false],
      [{ m: ['ok', { deep: 'Casino!' }] }, true],
    ];
    for (const [json, spam] of cases) {
      const response = await post(form.code, json);
      expect(response.status).toBe(201);
      const row = await storedRow(((await response.json()) as { id: string }).id);
      expect([json, row.spam, row.spamReason]).toEqual([json, spam, spam ? 'blocked_word' : null]);
    }
  });

  it('duplicates: the same content within the window answers the first id; outside it is stored anew', async () => {
    const form = await formWith({ duplicateWindowSeconds: 1 });
    expect(form.duplicateWindowSeconds).toBe(1);
    const first = (await (await post(form.code, { name: 'Ada', message: 'Hi' })).json()) as {
      id: string;
      createdAt: string;
    };
    const prints = await footprint(services);
    // The same content, keys in another order: stored once, answered like the first.
    const repeat = await post(form.code, { message: 'Hi', name: 'Ada' });
    expect(repeat.status).toBe(201);
    expect(await repeat.json()).toEqual({ ...first, files: [] });
    expect(await footprint(services)).toEqual(prints);
    const other = (await (await post(form.code, { name: 'Ada', message: 'Hello' })).json()) as { id: string };
    expect(other.id).not.toBe(first.id);

    await new Promise((resolve) => setTimeout(resolve, 1200));
    const later = (await (await post(form.code, { name: 'Ada', message: 'Hi' })).json()) as { id: string };
    expect(later.id).not.toBe(first.id);
  });

  it('duplicates sent at the same moment are stored once, all answered with the first id', async () => {
    const form = await formWith({ duplicateWindowSeconds: 60, honeypotFields: ['website'] });
    const before = await footprint(services);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(form.code, { name: 'Ada', message: 'double click' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: string }).id)));
    expect(ids.size).toBe(1);
    expect((await footprint(services)).submissions).toBe(before.submissions + 1);
    // With files too: one row, one stored object, the others' objects removed.
    const upload = () => {
      const body = new FormData();
      body.append('picture', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'p.png');
      return send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body });
    };
    const withFiles = await Promise.all(Array.from({ length: 4 }, upload));
    const fileIds = new Set(
      await Promise.all(withFiles.map(async (answer) => ((await answer.json()) as { id: string }).id)),
    );
    expect(fileIds.size).toBe(1);
    const after = await footprint(services);
    expect(after.submissions).toBe(before.submissions + 2);
    expect(after.objects).toBe(before.objects + 1);
  });

  it('duplicates with files compare the files’ hashes', async () => {
    const form = await formWith({ duplicateWindowSeconds: 60 });
    const upload = (bytes: Uint8Array) => {
      const body = new FormData();
      body.append('name', 'Ada');
      body.append('picture', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
      return send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body });
    };
    const first = (await (await upload(png())).json()) as { id: string; files: { id: string }[] };
    const same = (await (await upload(png())).json()) as { id: string; files: { id: string }[] };
    expect(same).toEqual(first);
    const changed = png();
    changed[changed.length - 1] = (changed[changed.length - 1]! + 1) % 256;
    const different = await upload(changed);
    expect(different.status).toBe(201);
    expect(((await different.json()) as { id: string }).id).not.toBe(first.id);
  });

  it('a duplicate is the same submission: another file name or another spam verdict is stored anew', async () => {
    const form = await formWith({ duplicateWindowSeconds: 600 });
    const upload = (name: string) => {
      const body = new FormData();
      body.append('message', 'my CV');
      body.append('cv', new Blob(['Curriculum vitae\n'], { type: 'text/plain' }), name);
      return send(gateway.url, form.code, { apiKey: services.config.apiKey, token: siteToken, body });
    };
    type Answer = { id: string; files: { name: string }[] };
    const alice = (await (await upload('alice-cv.txt')).json()) as Answer;
    const bob = (await (await upload('bob-cv.txt')).json()) as Answer;
    expect(bob.id).not.toBe(alice.id);
    expect(bob.files.map((file) => file.name)).toEqual(['bob-cv.txt']);
    // Alice's own repeat is still a duplicate.
    expect(await (await upload('alice-cv.txt')).json()).toEqual(alice);

    // Stored as spam while the CAPTCHA provider was unreachable; the same content with a valid
    // answer is a good submission of its own, in the inbox and delivered.
    const guarded = await formWith({
      duplicateWindowSeconds: 600,
      captchaProvider: 'TURNSTILE',
      captchaSecret: STUB_SECRET,
      captchaUnavailableAsSpam: true,
    });
    await gql('mutation($f: ID!, $u: String!) { createWebhook(input: { formId: $f, url: $u }) { secret } }', {
      f: guarded.id,
      u: `${receiver.url}/duplicates`,
    });
    const content = { name: 'Ada', message: 'Call me' };
    const outage = await post(guarded.code, { ...content, 'cf-turnstile-response': ANSWERS.slow });
    const spamId = ((await outage.json()) as { id: string }).id;
    expect(await storedRow(spamId)).toMatchObject({ spam: true, spamReason: 'captcha_unavailable' });
    const valid = await post(guarded.code, { ...content, 'cf-turnstile-response': ANSWERS.good });
    expect(valid.status).toBe(201);
    const goodId = ((await valid.json()) as { id: string }).id;
    expect(goodId).not.toBe(spamId);
    expect(await storedRow(goodId)).toMatchObject({ spam: false, spamReason: null, data: content });
    expect(await services.db.em.fork().count(DeliverySchema, { submission: goodId })).toBe(1);
  });

  it('counts spam in metrics by reason, with no form code in the labels', async () => {
    const form = await formWith({ honeypotFields: ['website'] });
    const before = await metricValue('intake_spam_total', 'reason="honeypot"');
    await post(form.code, { website: 'http://spam.example' });
    expect(await metricValue('intake_spam_total', 'reason="honeypot"')).toBe(before + 1);
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).not.toContain(form.code);
  });
});

describe(`spam and the inbox on ${testDriverName()}`, () => {
  it('spam reaches no webhook or e-mail and stays out of the inbox until "Not spam", which delivers it', async () => {
    const form = await formWith({ honeypotFields: ['website'] });
    await gql('mutation($id: ID!) { updateForm(id: $id, input: { notifyEmails: ["team@example.com"] }) { id } }', {
      id: form.id,
    });
    const { createWebhook } = await gql(
      'mutation($f: ID!, $u: String!) { createWebhook(input: { formId: $f, url: $u }) { secret } }',
      { f: form.id, u: `${receiver.url}/spam-test` },
    );
    receiver.secret = createWebhook.secret;
    const received = receiver.received.length;

    const spamAnswer = (await (await post(form.code, { name: 'Bot', website: 'x' })).json()) as { id: string };
    const goodAnswer = (await (await post(form.code, { name: 'Ada' })).json()) as { id: string };
    await receiver.waitFor(received + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const delivered = receiver.received.slice(received);
    expect(delivered.map((request) => request.json.data.submissionId)).toEqual([goodAnswer.id]);
    const em = services.db.em.fork();
    expect(await em.count(DeliverySchema, { submission: spamAnswer.id })).toBe(0);

    const page = (spam: boolean | undefined) =>
      gql(
        `query($f: ID!${spam === undefined ? '' : ', $s: Boolean'}) { submissions(formId: $f${spam === undefined ? '' : ', spam: $s'}) {
          totalCount edges { node { id spam spamReason } } } }`,
        spam === undefined ? { f: form.id } : { f: form.id, s: spam },
      );
    const inbox = (await page(undefined)).submissions;
    expect(inbox.totalCount).toBe(1);
    expect(inbox.edges.map((edge: any) => edge.node)).toEqual([{ id: goodAnswer.id, spam: false, spamReason: null }]);
    const spamView = (await page(true)).submissions;
    expect(spamView.totalCount).toBe(1);
    expect(spamView.edges.map((edge: any) => edge.node)).toEqual([
      { id: spamAnswer.id, spam: true, spamReason: 'honeypot' },
    ]);
    const { forms } = await gql('query($s: ID!) { forms(siteId: $s) { id submissionCount spamCount } }', { s: siteId });
    expect(forms.find((entry: any) => entry.id === form.id)).toEqual({ id: form.id, submissionCount: 1, spamCount: 1 });

    const { markNotSpam } = await gql('mutation($id: ID!) { markNotSpam(id: $id) { id spam spamReason } }', {
      id: spamAnswer.id,
    });
    expect(markNotSpam).toEqual({ id: spamAnswer.id, spam: false, spamReason: null });
    await receiver.waitFor(received + 2);
    expect(receiver.received.at(-1)!.json.data.submissionId).toBe(spamAnswer.id);
    expect(receiver.received.at(-1)!.verified).toBe(true);
    // Queued once: the webhook and the notification e-mail, and a second call queues nothing more.
    await gql('mutation($id: ID!) { markNotSpam(id: $id) { id } }', { id: spamAnswer.id });
    expect(await services.db.em.fork().count(DeliverySchema, { submission: spamAnswer.id })).toBe(2);
    expect((await page(false)).submissions.totalCount).toBe(2);
    expect((await page(true)).submissions.totalCount).toBe(0);
  });

  it('deleteSubmission removes spam like any submission; markNotSpam of an unknown id is NOT_FOUND', async () => {
    const form = await formWith({ blockedWords: ['viagra'] });
    const answer = (await (await post(form.code, { m: 'Viagra' })).json()) as { id: string };
    expect(await gql('mutation($id: ID!) { deleteSubmission(id: $id) }', { id: answer.id })).toEqual({
      deleteSubmission: true,
    });
    const missing = await graphqlRequest(
      admin.url,
      'mutation($id: ID!) { markNotSpam(id: $id) { id } }',
      { id: answer.id },
      adminToken,
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
