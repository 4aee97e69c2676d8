import { SiteSchema, StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import { generateControlCode } from '@intake/shared/site-token';
import { makeForm, makeSite, rawRequest, testDriverName } from '@intake/shared/test';
import { createHash } from 'node:crypto';
import { startGateway } from '../index.js';
import { footprint, send, startTestGateway, withConfig } from '../test/harness.js';
import { pdf, png } from '@intake/test-files';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

let harness: Harness;
let url: string;
let apiKey: string;

beforeAll(async () => {
  harness = await startTestGateway();
  url = harness.gateway.url;
  apiKey = harness.services.config.apiKey;
});

afterAll(async () => {
  await harness.close();
});

async function siteAndForm(formOverrides: Parameters<typeof makeForm>[2] = {}) {
  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site, formOverrides);
  return { site, token, form };
}

function multipart(
  fields: Record<string, string | string[]>,
  files: { field: string; name: string; bytes: Buffer; type?: string }[] = [],
): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      body.append(name, item);
    }
  }
  for (const file of files) {
    body.append(
      file.field,
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  return body;
}

/** `depth` objects nested in each other: the top-level object is depth 1. */
function nestedObjects(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let level = 1; level < depth; level++) {
    value = { next: value };
  }
  return value;
}

async function expectProblem(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.any(String),
    }),
  );
  return body;
}

describe(`intake gateway on ${testDriverName()}`, () => {
  describe('credentials, in the contract order', () => {
    it('401 api_key_missing without X-KEY-SERVICE, or with an empty one', async () => {
      const { form, token } = await siteAndForm();
      await expectProblem(await send(url, form.code, { apiKey: null, token, json: { a: 1 } }), 401, 'api_key_missing');
      await expectProblem(await send(url, form.code, { apiKey: '', token, json: { a: 1 } }), 401, 'api_key_missing');
    });

    it('403 api_key_invalid for a wrong key of the same or another length, never echoing it', async () => {
      const { form, token } = await siteAndForm();
      const sameLength = apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A');
      for (const wrong of [sameLength, 'short', apiKey + 'x']) {
        const body = await expectProblem(
          await send(url, form.code, { apiKey: wrong, token, json: {} }),
          403,
          'api_key_invalid',
        );
        expect(JSON.stringify(body)).not.toContain(wrong);
      }
    });

    it('accepts the header name in any case', async () => {
      const { form, token } = await siteAndForm();
      const response = await fetch(`${url}/api/v1/send/${form.code}`, {
        method: 'POST',
        headers: { 'x-key-service': apiKey, authorization: `bearer ${token}`, 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(response.status).toBe(201);
    });

    it('401 token_missing without Authorization or with another scheme', async () => {
      const { form, token } = await siteAndForm();
      await expectProblem(await send(url, form.code, { apiKey, json: {} }), 401, 'token_missing');
      await expectProblem(
        await send(url, form.code, { apiKey, authorization: `Basic ${token}`, json: {} }),
        401,
        'token_missing',
      );
      await expectProblem(
        await send(url, form.code, { apiKey, authorization: 'Bearer', json: {} }),
        401,
        'token_missing',
      );
    });

    it('403 token_invalid for garbage, a tampered token and a token of another secret', async () => {
      const { form, token } = await siteAndForm();
      const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      for (const bad of ['garbage', tampered, 'a.b.c']) {
        const body = await expectProblem(
          await send(url, form.code, { apiKey, token: bad, json: {} }),
          403,
          'token_invalid',
        );
        expect(JSON.stringify(body)).not.toContain(bad);
      }
    });

    it('403 token_invalid once the site token was rotated or the site deleted', async () => {
      const rotated = await siteAndForm();
      const deleted = await siteAndForm();
      const em = harness.services.db.em.fork();
      await em.nativeUpdate(SiteSchema, { id: rotated.site.id }, { controlCode: generateControlCode() });
      await em.nativeUpdate(SiteSchema, { id: deleted.site.id }, { deletedAt: new Date() });
      await expectProblem(
        await send(url, rotated.form.code, { apiKey, token: rotated.token, json: {} }),
        403,
        'token_invalid',
      );
      await expectProblem(
        await send(url, deleted.form.code, { apiKey, token: deleted.token, json: {} }),
        403,
        'token_invalid',
      );
    });

    it("403 form_forbidden for an unknown code, another site's form, a disabled or deleted form", async () => {
      const mine = await siteAndForm();
      const other = await siteAndForm();
      const disabled = await makeForm(harness.services, mine.site, { enabled: false });
      const deleted = await makeForm(harness.services, mine.site, { deletedAt: new Date() });
      for (const code of ['no-such-form-code-123', other.form.code, disabled.code, deleted.code]) {
        await expectProblem(await send(url, code, { apiKey, token: mine.token, json: {} }), 403, 'form_forbidden');
      }
    });
  });

  describe('bodies', () => {
    it('415 unsupported_media_type for another content type, after the credentials', async () => {
      const { form, token } = await siteAndForm();
      const response = await send(url, form.code, {
        apiKey,
        token,
        body: 'a=1',
        headers: { 'Content-Type': 'text/plain' },
      });
      await expectProblem(response, 415, 'unsupported_media_type');
      await expectProblem(
        await send(url, form.code, { apiKey: 'wrong', token, body: 'a=1', headers: { 'Content-Type': 'text/plain' } }),
        403,
        'api_key_invalid',
      );
    });

    it('415 with the Content-Type to set for a JSON body sent without it (curl -d sends it urlencoded)', async () => {
      const { form, token } = await siteAndForm();
      const before = await footprint(harness.services);
      const json = '{"name":"Ada","message":"Hello"}';
      const cases: Record<string, string>[] = [
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        { 'Content-Type': 'text/plain;charset=UTF-8' },
        {},
      ];
      for (const headers of cases) {
        for (const body of [json, ` [1, 2]\n`]) {
          const response = await send(url, form.code, { apiKey, token, body: new TextEncoder().encode(body), headers });
          const problem = await expectProblem(response, 415, 'unsupported_media_type');
          expect([headers, problem.detail]).toEqual([
            headers,
            expect.stringContaining('Content-Type: application/json'),
          ]);
        }
      }
      expect(await footprint(harness.services)).toEqual(before);
      // A urlencoded body that merely starts with a brace is still a urlencoded body.
      const braces = await send(url, form.code, {
        apiKey,
        token,
        body: '{a}=1',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(braces.status).not.toBe(415);
    });

    it.each([
      ['malformed JSON', '{"a":'],
      ['a JSON array', '[1,2]'],
      ['a JSON string', '"hello"'],
      ['JSON null', 'null'],
      ['a __proto__ key', '{"__proto__":{"admin":true}}'],
      ['a nested constructor key', '{"a":[{"constructor":{"prototype":1}}]}'],
      ['nesting deeper than 8', JSON.stringify(nestedObjects(9))],
      ['a string over 64 KiB', JSON.stringify({ a: 'x'.repeat(65537) })],
      ['a NUL character', '{"a":"x\\u0000y"}'],
      ['a lone surrogate', '{"a":"\\ud800"}'],
      ['a key holding markup', '{"<img src=x>":"v"}'],
    ])('400 body_invalid for %s, leaving nothing behind', async (_label, json) => {
      const { form, token } = await siteAndForm();
      const before = await footprint(harness.services);
      const body = await expectProblem(await send(url, form.code, { apiKey, token, json }), 400, 'body_invalid');
      expect(await footprint(harness.services)).toEqual(before);
      if (json.length < 200) {
        expect(String(body.detail)).not.toContain('admin');
      }
    });

    it('accepts exactly depth 8 and a string of exactly 64 KiB', async () => {
      const { form, token } = await siteAndForm();
      expect((await send(url, form.code, { apiKey, token, json: nestedObjects(8) })).status).toBe(201);
      expect((await send(url, form.code, { apiKey, token, json: { s: 'é'.repeat(32768) } })).status).toBe(201);
    });

    it('400 body_invalid for a forbidden key in urlencoded and multipart bodies', async () => {
      const { form, token } = await siteAndForm();
      const urlencoded = await send(url, form.code, {
        apiKey,
        token,
        body: '__proto__[admin]=1',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      await expectProblem(urlencoded, 400, 'body_invalid');
      await expectProblem(
        await send(url, form.code, { apiKey, token, body: multipart({ constructor: 'x' }) }),
        400,
        'body_invalid',
      );
    });

    it('400 body_invalid for a file whose field name is longer than its stored row holds, leaving nothing behind', async () => {
      // Found by the fuzz run: a 1,000-character field name passed multer and broke the insert (500).
      const { form, token } = await siteAndForm();
      const before = await footprint(harness.services);
      const body = multipart({ name: 'Ada' }, [{ field: 'f'.repeat(256), name: 'a.txt', bytes: Buffer.from('text') }]);
      await expectProblem(await send(url, form.code, { apiKey, token, body }), 400, 'body_invalid');
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('400 body_invalid for a malformed multipart body', async () => {
      const { form, token } = await siteAndForm();
      const response = await send(url, form.code, {
        apiKey,
        token,
        body: '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
        headers: { 'Content-Type': 'multipart/form-data; boundary=abc' },
      });
      await expectProblem(response, 400, 'body_invalid');
    });

    it('413 payload_too_large for a body, a file or a file count over the limits, leaving nothing behind', async () => {
      const small = withConfig(harness.services, (config) => ({
        ...config,
        limits: { ...config.limits, maxBodySize: 2048, maxFileSize: 1024, maxFiles: 2 },
      }));
      const tight = await startGateway(small);
      try {
        const { form, token } = await siteAndForm();
        const before = await footprint(harness.services);
        await expectProblem(
          await send(tight.url, form.code, { apiKey, token, json: { a: 'x'.repeat(4000) } }),
          413,
          'payload_too_large',
        );
        const bigFile = multipart({}, [{ field: 'f', name: 'a.txt', bytes: Buffer.alloc(1500, 'a') }]);
        await expectProblem(
          await send(tight.url, form.code, { apiKey, token, body: bigFile }),
          413,
          'payload_too_large',
        );
        const threeFiles = multipart(
          {},
          [1, 2, 3].map((n) => ({ field: 'f', name: `${n}.txt`, bytes: Buffer.from('hi') })),
        );
        await expectProblem(
          await send(tight.url, form.code, { apiKey, token, body: threeFiles }),
          413,
          'payload_too_large',
        );
        expect(await footprint(harness.services)).toEqual(before);
      } finally {
        await tight.close();
      }
    });

    it("caps a file by the form's maxFileSize", async () => {
      const { form, token } = await siteAndForm({ maxFileSize: 100 });
      const body = multipart({}, [{ field: 'f', name: 'a.txt', bytes: Buffer.alloc(101, 'a') }]);
      await expectProblem(await send(url, form.code, { apiKey, token, body }), 413, 'payload_too_large');
    });
  });

  describe('files', () => {
    it('400 file_type_not_allowed for an extension outside the form types, leaving nothing behind', async () => {
      const { form, token } = await siteAndForm({ allowedMimeTypes: ['application/pdf'] });
      const before = await footprint(harness.services);
      for (const name of ['photo.png', 'script.exe', 'noextension']) {
        const body = multipart({ a: '1' }, [{ field: 'f', name, bytes: png() }]);
        await expectProblem(await send(url, form.code, { apiKey, token, body }), 400, 'file_type_not_allowed');
      }
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('400 file_type_mismatch when the bytes are another type, leaving nothing behind', async () => {
      const { form, token } = await siteAndForm();
      const before = await footprint(harness.services);
      const cases = [
        { name: 'report.jpg', bytes: pdf() },
        { name: 'image.png', bytes: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]) },
        { name: 'notes.txt', bytes: Buffer.from([0x68, 0x00, 0x69]) },
      ];
      for (const file of cases) {
        const body = multipart({}, [{ field: 'f', ...file }]);
        await expectProblem(await send(url, form.code, { apiKey, token, body }), 400, 'file_type_mismatch');
      }
      // The second file is bad: the first, already checked, must not stay either.
      const mixed = multipart({}, [
        { field: 'ok', name: 'ok.pdf', bytes: pdf() },
        { field: 'bad', name: 'bad.png', bytes: pdf() },
      ]);
      await expectProblem(await send(url, form.code, { apiKey, token, body: mixed }), 400, 'file_type_mismatch');
      expect(await footprint(harness.services)).toEqual(before);
    });
  });

  describe('accepted submissions', () => {
    it('201 for JSON: sanitised strings, other values as they are, keys as sent', async () => {
      const { form, token } = await siteAndForm();
      const sent = {
        name: 'Ada Lovelace',
        message: 'Hi <script>alert(1)</script><b>there</b>',
        count: 3,
        ok: true,
        none: null,
        nested: { list: ['<img src=x onerror=alert(1)>safe', 2] },
        'weird key.with dots': 'kept',
      };
      const response = await send(url, form.code, { apiKey, token, json: sent });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = (await response.json()) as { id: string; createdAt: string; files: unknown[] };
      expect(answer).toEqual({
        id: expect.any(String),
        createdAt: expect.any(String),
        files: [],
        receipt: expect.any(String),
      });
      expect(new Date(answer.createdAt).toISOString()).toBe(answer.createdAt);

      const stored = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, { id: answer.id });
      expect(stored.data).toEqual({
        name: 'Ada Lovelace',
        message: expect.not.stringContaining('<'),
        count: 3,
        ok: true,
        none: null,
        nested: { list: [expect.not.stringContaining('<'), 2] },
        'weird key.with dots': 'kept',
      });
      expect(stored.data.message).toContain('there');
    });

    it('201 for urlencoded: a repeated field becomes an array', async () => {
      const { form, token } = await siteAndForm();
      const response = await send(url, form.code, {
        apiKey,
        token,
        body: 'tag=a&tag=b&name=Ada',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const stored = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, { id });
      expect(stored.data).toEqual({ tag: ['a', 'b'], name: 'Ada' });
    });

    it('201 for multipart with a PDF in field fichier: the answer describes the stored file', async () => {
      const { form, token } = await siteAndForm();
      const bytes = pdf(50_000);
      const body = multipart({ name: 'Ada', tag: ['x', 'y'] }, [
        { field: 'fichier', name: 'report.pdf', bytes, type: 'application/pdf' },
      ]);
      const response = await send(url, form.code, { apiKey, token, body });
      expect(response.status).toBe(201);
      const answer = (await response.json()) as { id: string; files: Record<string, unknown>[] };
      expect(answer.files).toEqual([
        {
          id: expect.any(String),
          field: 'fichier',
          name: 'report.pdf',
          mimeType: 'application/pdf',
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        },
      ]);
      const em = harness.services.db.em.fork();
      const stored = await em.findOneOrFail(SubmissionSchema, { id: answer.id });
      expect(stored.data).toEqual({ name: 'Ada', tag: ['x', 'y'] });
      const file = await em.findOneOrFail(StoredFileSchema, { submission: answer.id });
      const object = await harness.services.storage.get(file.storageKey);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.stream) {
        chunks.push(chunk as Buffer);
      }
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      expect(file.storageKey).not.toContain('report');
      expect((await footprint(harness.services)).uploads).toBe(0);
    });

    it('keeps a file name as data only: separators and bidi overrides removed', async () => {
      const { form, token } = await siteAndForm();
      const body = multipart({}, [{ field: 'f', name: '../../etc/evil\u202Egnp.pdf', bytes: pdf() }]);
      const response = await send(url, form.code, { apiKey, token, body });
      expect(response.status).toBe(201);
      const { files } = (await response.json()) as { files: { name: string }[] };
      expect(files[0]?.name).not.toMatch(/[/\\\u202E]/);
      expect(files[0]?.name.endsWith('.pdf')).toBe(true);
    });
  });

  describe('Idempotency-Key', () => {
    it('returns the first answer for a repeat and stores nothing new', async () => {
      const { form, token } = await siteAndForm();
      const headers = { 'Idempotency-Key': 'order-42' };
      const first = await send(url, form.code, { apiKey, token, json: { a: 1 }, headers });
      const before = await footprint(harness.services);
      const second = await send(url, form.code, { apiKey, token, json: { a: 2 }, headers });
      expect(second.status).toBe(201);
      expect(await second.json()).toEqual(await first.json());
      expect(await footprint(harness.services)).toEqual(before);
    });

    it('is scoped to the form', async () => {
      const { site, token, form } = await siteAndForm();
      const other = await makeForm(harness.services, site);
      const headers = { 'Idempotency-Key': 'same-key' };
      const a = (await (await send(url, form.code, { apiKey, token, json: {}, headers })).json()) as { id: string };
      const b = (await (await send(url, other.code, { apiKey, token, json: {}, headers })).json()) as { id: string };
      expect(a.id).not.toBe(b.id);
    });

    it('stores one submission for 10 concurrent repeats with a file, all answered with the same id', async () => {
      const { form, token } = await siteAndForm();
      const before = await footprint(harness.services);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          send(url, form.code, {
            apiKey,
            token,
            body: multipart({ a: '1' }, [{ field: 'f', name: 'a.pdf', bytes: pdf() }]),
            headers: { 'Idempotency-Key': 'concurrent-1' },
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
      const ids = new Set(
        await Promise.all(responses.map(async (response) => ((await response.json()) as { id: string }).id)),
      );
      expect(ids.size).toBe(1);
      const after = await footprint(harness.services);
      expect(after).toEqual({
        ...before,
        submissions: before.submissions + 1,
        files: before.files + 1,
        objects: before.objects + 1,
      });
    });

    it('400 body_invalid for a malformed key', async () => {
      const { form, token } = await siteAndForm();
      const response = await send(url, form.code, {
        apiKey,
        token,
        json: {},
        headers: { 'Idempotency-Key': 'x'.repeat(256) },
      });
      await expectProblem(response, 400, 'body_invalid');
    });
  });

  describe('other routes', () => {
    it('answers /healthz and /readyz', async () => {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual(expect.objectContaining({ status: 'ok' }));
    });

    it('answers an unknown route with a 404 problem and GET on the intake route with 405', async () => {
      await expectProblem(await fetch(`${url}/nope`), 404, 'not_found');
      const { form } = await siteAndForm();
      await expectProblem(await fetch(`${url}/api/v1/send/${form.code}`), 405, 'method_not_allowed');
    });

    it('answers what the HTTP parser refuses with a problem document and closes the connection', async () => {
      // A request line of 20 KiB is over Node's 16 KiB header limit: no route ever sees it.
      const { form, token } = await siteAndForm();
      const long = await send(url, `${form.code}${'x'.repeat(20 * 1024)}`, { apiKey, token, json: {} });
      await expectProblem(long, 431, 'headers_too_large');
      expect(long.headers.get('connection')).toBe('close');

      const malformed = await rawRequest(url, 'POST /api/v1/send/x HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      await expectProblem(malformed, 400, 'request_invalid');
      expect(malformed.headers.get('connection')).toBe('close');
    });

    it('keeps a sane X-Request-Id and replaces an insane one', async () => {
      const kept = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': 'abc-123' } });
      expect(kept.headers.get('x-request-id')).toBe('abc-123');
      const replaced = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': 'a b<c>' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
