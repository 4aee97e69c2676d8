// Browser posts (docs/static-sites.md) against a listening gateway, without a browser: what a
// script or a bot can send. The origin check and its CORS answers, the challenge (forged origins
// still need one, answers are single-use, signed, for one form, expiring), the thank-you address
// that nothing in the request can move to another site, reserved field names, the browser limits,
// and the backend path of the same form unchanged. Chromium plays the pages in
// tests/src/static-sites/.
import { FormSchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { startGateway } from '../index.js';
import { footprint, send, startTestGateway, withConfig } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

const ORIGIN = 'https://www.example.org';
const OTHER = 'https://evil.example';
const THANKS = 'https://www.example.org/thanks';
const THANKS_DE = 'https://www.example.org/danke';

let harness: Harness;
let site: Site;
let token: string;

beforeAll(async () => {
  harness = await startTestGateway({ BROWSER_POSTS_PER_MINUTE: '0', BROWSER_FORM_POSTS_PER_MINUTE: '0' });
  ({ site, token } = await makeSite(harness.services, { name: 'Acme <Shop>' }));
});

afterAll(async () => {
  await harness?.close();
});

/** A form taking browser posts from ORIGIN, with these settings. */
async function browserForm(settings: Partial<Form> = {}): Promise<Form> {
  const form = await makeForm(harness.services, site);
  const em = harness.services.db.em.fork();
  await em.nativeUpdate(
    FormSchema,
    { id: form.id },
    { browserPosting: true, browserOrigins: [ORIGIN], browserChallengeDifficulty: 10, ...settings },
  );
  return { ...form, ...settings };
}

function post(code: string, body: BodyInit, headers: Record<string, string> = {}, base = harness.gateway.url) {
  return fetch(`${base}/api/v1/send/${code}`, { method: 'POST', body, headers, redirect: 'manual' });
}

/** What a browser's own form post sends: urlencoded, asking for a page. */
function navigate(code: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return post(code, new URLSearchParams(fields), { Origin: ORIGIN, Accept: 'text/html,*/*;q=0.8', ...headers });
}

/** What the enhancement script sends: multipart, asking for JSON. */
function script(code: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    data.append(key, value);
  }
  return post(code, data, { Origin: ORIGIN, Accept: 'application/json', ...headers });
}

/** Solves the form's challenge as the widget does, and gives the field's value. */
async function solved(code: string, origin = ORIGIN): Promise<string> {
  const response = await fetch(`${harness.gateway.url}/api/v1/challenge/${code}`, { headers: { Origin: origin } });
  expect(response.status).toBe(200);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function storedOf(formId: string) {
  return harness.services.db.em.fork().find(SubmissionSchema, { form: formId }, { orderBy: { createdAt: 'asc' } });
}

async function problemOf(response: Response): Promise<{ code: string; errors?: unknown[] }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as { code: string };
}

describe(`browser posts on ${testDriverName()}`, () => {
  describe('who may post', () => {
    it('takes a post without credentials from a listed origin, with CORS for that origin only', async () => {
      const form = await browserForm();
      const answer = await script(form.code, { message: 'hello', altcha: await solved(form.code) });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      expect(answer.headers.get('vary')).toMatch(/Origin/);
      const body = (await answer.json()) as { id: string; receipt: string; thankYouUrl: string };
      expect(body.receipt).toMatch(/^ey/);
      expect(body.thankYouUrl).toBe(`/api/v1/thanks/${form.code}?receipt=${encodeURIComponent(body.receipt)}`);
      const stored = await storedOf(form.id);
      expect(stored.map((row) => [row.id, row.data, row.spam])).toEqual([[body.id, { message: 'hello' }, false]]);
    });

    it('refuses a post from an origin the form does not list: nothing stored, no CORS header naming it', async () => {
      const form = await browserForm();
      const before = await footprint(harness.services);
      for (const headers of [{ Origin: OTHER }, { Origin: 'null' }, { Origin: `${ORIGIN}:444` }]) {
        const refused = await script(form.code, { message: 'hi', altcha: 'x' }, headers);
        expect(refused.status).toBe(403);
        expect((await problemOf(refused)).code).toBe('origin_not_allowed');
        expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      }
      // Neither Origin nor Referer: no origin at all.
      const bare = await post(form.code, new URLSearchParams({ message: 'hi' }), { Accept: 'application/json' });
      expect((await problemOf(bare)).code).toBe('origin_not_allowed');
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('reads the origin of Referer when a browser sends no Origin', async () => {
      const form = await browserForm({ browserChallenge: 'off' });
      const fromReferer = await post(form.code, new URLSearchParams({ message: 'old browser' }), {
        Referer: `${ORIGIN}/contact/`,
        Accept: 'application/json',
      });
      expect(fromReferer.status).toBe(201);
      const wrongReferer = await post(form.code, new URLSearchParams({ message: 'x' }), {
        Referer: `${OTHER}/contact/`,
        Accept: 'application/json',
      });
      expect((await problemOf(wrongReferer)).code).toBe('origin_not_allowed');
    });

    it('answers a form without browser posting as it always answered a request without credentials', async () => {
      const form = await makeForm(harness.services, site);
      const refused = await script(form.code, { message: 'hi' });
      expect(refused.status).toBe(401);
      expect((await problemOf(refused)).code).toBe('api_key_missing');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const unknown = await script('no-such-form', { message: 'hi' });
      expect((await problemOf(unknown)).code).toBe('api_key_missing');
    });

    it('answers the preflight of a JSON post for a listed origin only, never * and never with credentials', async () => {
      const form = await browserForm();
      const preflight = (origin: string) =>
        fetch(`${harness.gateway.url}/api/v1/send/${form.code}`, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'content-type',
          },
        });
      const allowed = await preflight(ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
      const refused = await preflight(OTHER);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const json = await post(form.code, JSON.stringify({ message: 'json', altcha: await solved(form.code) }), {
        Origin: ORIGIN,
        'Content-Type': 'application/json',
      });
      expect(json.status).toBe(201);
    });

    it('leaves the backend path of the same form as it was: credentials mean what they mean, no CORS', async () => {
      const form = await browserForm();
      const backend = await send(harness.gateway.url, form.code, {
        apiKey: harness.services.config.apiKey,
        token,
        json: { from: 'backend' },
        headers: { Origin: OTHER },
      });
      expect(backend.status).toBe(201);
      expect(backend.headers.get('access-control-allow-origin')).toBeNull();
      expect(Object.keys((await backend.json()) as object)).not.toContain('thankYouUrl');
      // A wrong key is refused as a wrong key, never taken for a browser post.
      const wrongKey = await send(harness.gateway.url, form.code, {
        apiKey: 'wrong',
        token,
        json: {},
        headers: { Origin: ORIGIN },
      });
      expect((await problemOf(wrongKey)).code).toBe('api_key_invalid');
      const tokenOnly = await send(harness.gateway.url, form.code, { token, json: {}, headers: { Origin: ORIGIN } });
      expect((await problemOf(tokenOnly)).code).toBe('api_key_missing');
    });
  });

  describe('the challenge', () => {
    it('is needed by a forged Origin too: the right header alone stores nothing', async () => {
      const form = await browserForm();
      const before = await footprint(harness.services);
      const forged = await script(form.code, { message: 'bot' }, { Origin: ORIGIN });
      expect(forged.status).toBe(400);
      expect((await problemOf(forged)).code).toBe('captcha_invalid');
      const fake = await script(form.code, {
        message: 'bot',
        altcha: Buffer.from('{"challenge":null,"solution":null,"test":true}').toString('base64'),
      });
      expect((await problemOf(fake)).code).toBe('captcha_invalid');
      expect(await footprint(harness.services)).toEqual(before);
      const answered = await script(form.code, { message: 'person', altcha: await solved(form.code) });
      expect(answered.status).toBe(201);
    });

    it('is single-use: the same answer sent again is refused, also at once in parallel', async () => {
      const form = await browserForm();
      const answer = await solved(form.code);
      expect((await script(form.code, { message: 'first', altcha: answer })).status).toBe(201);
      const replay = await script(form.code, { message: 'again', altcha: answer });
      expect((await problemOf(replay)).code).toBe('captcha_invalid');
      const other = await solved(form.code);
      const parallel = await Promise.all([1, 2, 3].map((n) => script(form.code, { message: `p${n}`, altcha: other })));
      expect(parallel.map((response) => response.status).sort()).toEqual([201, 400, 400]);
      expect((await storedOf(form.id)).map((row) => row.data.message).filter((m) => m !== 'first')).toHaveLength(1);
    });

    it('is signed by this gateway, for one form, and expires', async () => {
      const form = await browserForm();
      const another = await browserForm();
      const forOther = await solved(another.code);
      expect((await problemOf(await script(form.code, { altcha: forOther }))).code).toBe('captcha_invalid');
      // A challenge signed with another key (another deployment's, or one made up).
      const made = JSON.parse(Buffer.from(await solved(form.code), 'base64').toString()) as {
        challenge: { signature: string };
      };
      made.challenge.signature = made.challenge.signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      const tampered = Buffer.from(JSON.stringify(made)).toString('base64');
      expect((await problemOf(await script(form.code, { altcha: tampered }))).code).toBe('captcha_invalid');
      // Expired: verified against a clock 16 minutes ahead.
      const answer = await solved(form.code);
      const realNow = Date.now;
      Date.now = () => realNow() + 16 * 60 * 1000;
      try {
        expect((await problemOf(await script(form.code, { altcha: answer }))).code).toBe('captcha_invalid');
      } finally {
        Date.now = realNow;
      }
    });

    it('is handed out to listed origins only', async () => {
      const form = await browserForm();
      const refused = await fetch(`${harness.gateway.url}/api/v1/challenge/${form.code}`, {
        headers: { Origin: OTHER },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const given = await fetch(`${harness.gateway.url}/api/v1/challenge/${form.code}`, {
        headers: { Origin: ORIGIN },
      });
      expect(given.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(given.headers.get('cache-control')).toBe('no-store');
      const challenge = (await given.json()) as Challenge;
      expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', data: { form: form.code } });
    });

    it('in record-only mode stores a post without a valid answer as spam, with the reason', async () => {
      const form = await browserForm({ browserChallenge: 'record_only' });
      expect((await script(form.code, { message: 'no answer' })).status).toBe(201);
      expect((await script(form.code, { message: 'bad answer', altcha: 'bm90IGpzb24=' })).status).toBe(201);
      expect((await script(form.code, { message: 'good', altcha: await solved(form.code) })).status).toBe(201);
      const stored = await storedOf(form.id);
      expect(stored.map((row) => [row.data.message, row.spam, row.spamReason])).toEqual([
        ['no answer', true, 'challenge_missing'],
        ['bad answer', true, 'challenge_invalid'],
        ['good', false, null],
      ]);
      expect(stored.every((row) => !('altcha' in row.data))).toBe(true);
    });
  });

  describe('where the browser goes', () => {
    it('sends a plain form post on with 303 to the first thank-you address, or to _next when it is listed', async () => {
      const form = await browserForm({ browserChallenge: 'off', browserThankYouUrls: [THANKS, THANKS_DE] });
      const plain = await navigate(form.code, { message: 'a' });
      expect(plain.status).toBe(303);
      expect(plain.headers.get('location')).toBe(THANKS);
      const listed = await navigate(form.code, { message: 'b', _next: THANKS_DE });
      expect(listed.headers.get('location')).toBe(THANKS_DE);
      expect((await storedOf(form.id)).map((row) => row.data)).toEqual([{ message: 'a' }, { message: 'b' }]);
    });

    it('cannot be sent to another site by anything in the request', async () => {
      const form = await browserForm({ browserChallenge: 'off', browserThankYouUrls: [THANKS] });
      const tries: [Record<string, string>, Record<string, string>][] = [
        [{ _next: 'https://evil.example/phish' }, {}],
        [{ _redirect: '//evil.example/' }, {}],
        [{ _next: `${THANKS}.evil.example` }, {}],
        [{ _next: `${THANKS}?then=https://evil.example` }, {}],
        [{ _next: 'https://www.example.org@evil.example/thanks' }, {}],
        [{}, { Referer: 'https://evil.example/', 'X-Forwarded-Host': 'evil.example' }],
      ];
      for (const [fields, headers] of tries) {
        const answer = await navigate(form.code, { message: 'x', ...fields }, headers);
        expect(answer.status).toBe(303);
        expect(answer.headers.get('location')).toBe(THANKS);
      }
      // Without thank-you addresses: Intake's own page, a path on the gateway the browser reached,
      // whatever Host the request named.
      const own = await browserForm({ browserChallenge: 'off' });
      const response = await navigate(
        own.code,
        { message: 'x', _next: 'https://evil.example/' },
        { Host: 'evil.example' },
      );
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(new RegExp(`^/api/v1/thanks/${own.code}\\?receipt=ey`));
    });

    it("shows Intake's thank-you page: the site, what was received and when, the receipt to download", async () => {
      const form = await browserForm({
        browserChallenge: 'off',
        browserTexts: { language: 'de', title: 'Danke <schön>', reference: 'Vorgang' },
      });
      const data = new FormData();
      data.append('message', 'mit Datei');
      data.append('upload', new Blob(['hello file'], { type: 'text/plain' }), 'hallo <1>.txt');
      const answer = await post(form.code, data, { Origin: ORIGIN, Accept: 'text/html' });
      expect(answer.status).toBe(303);
      const thanksUrl = new URL(answer.headers.get('location')!, harness.gateway.url);
      const page = await fetch(thanksUrl);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe/);
      const html = await page.text();
      const [stored] = await storedOf(form.id);
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('Acme &lt;Shop&gt;');
      expect(html).toContain('<h1>Danke &lt;schön&gt;</h1>');
      expect(html).toContain(`<dt>Vorgang</dt><dd>${stored!.id}</dd>`);
      expect(html).toContain('hallo &lt;1&gt;.txt (10 B)');
      expect(html).toContain(`datetime="${stored!.createdAt.toISOString()}"`);
      const download = /href="([^"]+)" download="receipt-/.exec(html)![1]!.replaceAll('&amp;', '&');
      const receipt = await fetch(new URL(download, harness.gateway.url));
      expect(receipt.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${stored!.id}.jws"`);
      expect(await receipt.text()).toBe(stored!.receipt);
      // A receipt that is not this gateway's, or not for this form, shows nothing.
      const forged = await fetch(`${harness.gateway.url}/api/v1/thanks/${form.code}?receipt=eyJhbGciOiJub25lIn0.e30.`);
      expect(forged.status).toBe(404);
      const other = await browserForm();
      const elsewhere = await fetch(`${harness.gateway.url}/api/v1/thanks/${other.code}?receipt=${stored!.receipt}`);
      expect(elsewhere.status).toBe(404);
    });

    it('refuses a plain form post with a page naming each field, and a JSON problem for a script', async () => {
      const form = await browserForm({
        browserChallenge: 'off',
        fieldsSchema: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' }, age: { type: 'number' } },
          required: ['email'],
          additionalProperties: false,
        },
      } as Partial<Form>);
      const page = await navigate(form.code, { email: 'not-an-address', age: 'old' }, { Referer: `${ORIGIN}/contact` });
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
      const html = await page.text();
      expect(html).toContain('<strong>email</strong>: must be an e-mail address');
      expect(html).toContain('<strong>age</strong>: must be a number');
      expect(html).toContain(`<a id="back" href="${ORIGIN}/contact">Back to the form</a>`);
      const json = await script(form.code, { email: 'x' });
      expect(await problemOf(json)).toMatchObject({
        code: 'fields_invalid',
        errors: [{ path: 'email', reason: 'must be an e-mail address' }],
      });
      expect(json.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      // A refusal before the origin is known gives no way back to another site.
      const outsider = await navigate(form.code, { email: 'a@b.example' }, { Origin: OTHER, Referer: `${OTHER}/x` });
      expect(outsider.status).toBe(403);
      expect(await outsider.text()).not.toContain('evil.example/x');
    });
  });

  describe('reserved field names', () => {
    it('reads _subject, _replyto and the honeypots, drops other services switches, and keeps them when told not to', async () => {
      const form = await browserForm({ browserChallenge: 'off' });
      await script(form.code, {
        message: 'm',
        _subject: 'Hello',
        _reply_to: 'ada@example.org',
        _captcha: 'false',
        _gotcha: '',
      });
      await script(form.code, { message: 'bot', _honey: 'I fill everything' });
      const plain = await browserForm({ browserChallenge: 'off', browserReservedFields: false });
      await script(plain.code, { message: 'm', _gotcha: 'kept', _next: 'https://evil.example/' });
      const stored = [...(await storedOf(form.id)), ...(await storedOf(plain.id))];
      expect(stored.map((row) => [row.data, row.spam, row.spamReason])).toEqual([
        [{ message: 'm', _subject: 'Hello', _replyto: 'ada@example.org' }, false, null],
        [{ message: 'bot' }, true, 'honeypot'],
        [{ message: 'm', _gotcha: 'kept', _next: 'https://evil.example/' }, false, null],
      ]);
    });

    it('takes _subject and _replyto on a form that refuses undeclared fields', async () => {
      const form = await browserForm({
        browserChallenge: 'off',
        fieldsSchema: {
          type: 'object',
          properties: { message: { type: 'string' } },
          required: [],
          additionalProperties: false,
        },
      } as Partial<Form>);
      const answer = await script(form.code, { message: 'm', _subject: 'S', _gotcha: '' });
      expect(answer.status).toBe(201);
    });
  });

  describe('limits', () => {
    it('has smaller limits for browser posts, which the form may set, and they never touch the backend path', async () => {
      const form = await browserForm({ browserChallenge: 'off', browserMaxFiles: 1, browserMaxFileSize: 100 });
      const files = (count: number, size: number) => {
        const data = new FormData();
        for (let i = 0; i < count; i++) {
          data.append(`file${i}`, new Blob(['x'.repeat(size)], { type: 'text/plain' }), `f${i}.txt`);
        }
        return data;
      };
      const tooMany = await post(form.code, files(2, 10), { Origin: ORIGIN, Accept: 'application/json' });
      expect((await problemOf(tooMany)).code).toBe('payload_too_large');
      const tooLarge = await post(form.code, files(1, 101), { Origin: ORIGIN, Accept: 'application/json' });
      expect((await problemOf(tooLarge)).code).toBe('payload_too_large');
      expect((await post(form.code, files(1, 100), { Origin: ORIGIN, Accept: 'application/json' })).status).toBe(201);
      const backend = await fetch(`${harness.gateway.url}/api/v1/send/${form.code}`, {
        method: 'POST',
        body: files(3, 1000),
        headers: { 'X-KEY-SERVICE': harness.services.config.apiKey, Authorization: `Bearer ${token}` },
      });
      expect(backend.status).toBe(201);
    });

    it('limits browser requests per visitor address and accepted posts per form, apart from the site limit', async () => {
      const limited = await startGateway(
        withConfig(harness.services, (config) => ({
          ...config,
          rateLimits: {
            ...config.rateLimits,
            browserPostsPerMinute: 3,
            browserFormPostsPerMinute: 1,
            submissionsPerMinute: 1,
          },
        })),
      );
      try {
        const form = await browserForm({ browserChallenge: 'off' });
        const go = () =>
          post(form.code, new URLSearchParams({ m: 'x' }), { Origin: ORIGIN, Accept: 'application/json' }, limited.url);
        expect((await go()).status).toBe(201);
        const perForm = await go();
        expect((await problemOf(perForm)).code).toBe('rate_limited');
        expect(perForm.headers.get('retry-after')).not.toBeNull();
        // The site backend's own limit is untouched by browser posts.
        const backend = await send(limited.url, form.code, { apiKey: harness.services.config.apiKey, token, json: {} });
        expect(backend.status).toBe(201);
        expect((await go()).headers.get('ratelimit-limit')).toBe('1');
        // The fourth request from this address this minute: refused before its form is counted.
        const perAddress = await go();
        expect((await problemOf(perAddress)).code).toBe('rate_limited');
        expect(perAddress.headers.get('ratelimit-limit')).toBe('3');
      } finally {
        await limited.close();
      }
    });
  });

  describe('scripts for pages', () => {
    it('serves the widget and the enhancement script from the gateway, with no key or token in them', async () => {
      for (const path of ['/browser/altcha.js', '/browser/intake-form.js']) {
        const response = await fetch(`${harness.gateway.url}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        const text = await response.text();
        expect(text.length).toBeGreaterThan(1000);
        expect(text).not.toContain(harness.services.config.apiKey);
        expect(text).not.toContain(token);
        const again = await fetch(`${harness.gateway.url}${path}`, {
          headers: { 'If-None-Match': response.headers.get('etag')! },
        });
        expect(again.status).toBe(304);
      }
    });
  });
});
