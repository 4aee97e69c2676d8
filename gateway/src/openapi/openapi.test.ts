// The OpenAPI document against the OpenAPI 3.1 schema, and the gateway's real answers against the
// document: 201 in every body format and every problem code, each provoked for real through a
// listening gateway, validated with the schemas and headers the document declares for that status.
import { get, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { FormSchema } from '@intake/shared/entities';
import { codesAnsweredAs, ERROR_CATALOGUE, type ErrorCode } from '@intake/shared/errors';
import { toJsonSchema } from '@intake/shared/form-shape';
import { createCaptchaSecretBox } from '@intake/shared/spam';
import { createLocalStorage } from '@intake/shared/storage';
import { makeForm, makeSite, rawRequest, testDriverName } from '@intake/shared/test';
import { startGateway } from '../index.js';
import { PARSER_PROBLEMS, ROUTING_PROBLEMS, SEND_PROBLEMS, openApiDocument } from './document.js';
import {
  EXECUTABLE_HEADS,
  complexField,
  docm,
  docxWithBody,
  lyingSizeBomb,
  rawZip,
  pdf,
  png,
  zipOf,
} from '@intake/test-files';
import { clamdStatus, describeClamd, eicarBytes } from '../test/clamd.js';
import { send, startTestGateway, withConfig } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;
type JsonSchema = Record<string, unknown>;
interface ResponseSpec {
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

const document = openApiDocument as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { required?: boolean; schema: JsonSchema }>;
    responses: Record<string, ResponseSpec>;
  };
};

// ajv compiles each response schema with the document's component schemas as its $defs.
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<JsonSchema, ValidateFunction>();

function withDefs(schema: JsonSchema): JsonSchema {
  const text = JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/');
  const defs = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
  );
  return { ...JSON.parse(text), $defs: defs };
}

function compile(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(withDefs(schema));
    compiled.set(schema, validate);
  }
  return validate;
}

/** Every problem code a real answer carried, to check at the end that none was left out. */
const seenCodes = new Set<string>();

/** Checks status, media type, body and declared headers of a real answer against the document. */
async function expectDocumented(response: Response, spec: ResponseSpec | undefined): Promise<Record<string, unknown>> {
  expect(spec).toBeDefined();
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = spec!.content?.[mediaType];
  expect({ status: response.status, mediaType, documented: content !== undefined }).toEqual({
    status: response.status,
    mediaType,
    documented: true,
  });
  const body = (await response.json()) as Record<string, unknown>;
  const validate = compile(content!.schema);
  if (!validate(body)) {
    throw new Error(`${response.status} answer does not match the document: ${ajv.errorsText(validate.errors)}`);
  }
  for (const [name, declared] of Object.entries(spec!.headers ?? {})) {
    const header = declared.$ref ? document.components.headers[declared.$ref.split('/').pop()!]! : declared;
    const value = response.headers.get(name);
    if (header.required) {
      expect({ header: name, present: value !== null }).toEqual({ header: name, present: true });
    }
    if (value !== null) {
      const typed = header.schema!.type === 'integer' ? Number(value) : value;
      const validateHeader = compile(header.schema!);
      expect({ header: name, value, valid: validateHeader(typed) }).toEqual({ header: name, value, valid: true });
    }
  }
  if (typeof body.code === 'string') {
    seenCodes.add(body.code);
  }
  return body;
}

const sendResponses = () => document.paths['/api/v1/send/{code}']!.post!.responses;

/** A refusal (or success) of the intake route, validated, with its expected status and code. */
async function expectSendAnswer(
  response: Response,
  status: number,
  code?: ErrorCode,
): Promise<Record<string, unknown>> {
  const body = await expectDocumented(response, sendResponses()[String(response.status)]);
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  return body;
}

function upload(files: { name: string; bytes: Buffer }[], fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    body.append(name, value);
  }
  for (const file of files) {
    body.append('fichier', new Blob([new Uint8Array(file.bytes)]), file.name);
  }
  return body;
}

/** A TCP port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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

async function siteAndForm(overrides: Parameters<typeof makeForm>[2] = {}) {
  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site, overrides);
  return { site, token, form };
}

/** Runs `body` against a second gateway on the same database with a changed configuration. */
async function withGateway(
  change: Parameters<typeof withConfig>[1],
  body: (gatewayUrl: string) => Promise<void>,
  services = harness.services,
): Promise<void> {
  const other = await startGateway(withConfig(services, change));
  try {
    await body(other.url);
  } finally {
    await other.close();
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(openApiDocument) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every problem code of the catalogue once, under the status the catalogue gives it', () => {
    const groups: Record<number, readonly ErrorCode[]>[] = [SEND_PROBLEMS, ROUTING_PROBLEMS, PARSER_PROBLEMS];
    const documented = groups.flatMap((group) =>
      Object.entries(group).flatMap(([status, codes]) => codes.map((code) => ({ code, status: Number(status) }))),
    );
    expect(documented.map(({ code }) => code).sort()).toEqual(codesAnsweredAs('problem').sort());
    for (const { code, status } of documented) {
      expect({ code, status }).toEqual({ code, status: ERROR_CATALOGUE[code].status });
    }
    expect(document.components.schemas.ProblemCode!.enum).toEqual(codesAnsweredAs('problem'));
  });

  it('rejects an answer that breaks the contract (the checks can fail)', () => {
    const created = compile(document.components.schemas.SubmissionCreated!);
    expect(created({ id: '00000000-0000-4000-8000-000000000000', createdAt: 'yesterday', files: [] })).toBe(false);
    expect(created({ id: '00000000-0000-4000-8000-000000000000', createdAt: new Date().toISOString() })).toBe(false);
    const problem = sendResponses()['403']!.content!['application/problem+json']!.schema;
    const valid = {
      type: 'urn:intake:problem:token_invalid',
      title: 't',
      status: 403,
      detail: 'd',
      code: 'token_invalid',
    };
    expect(compile(problem)(valid)).toBe(true);
    expect(compile(problem)({ ...valid, code: 'body_invalid' })).toBe(false);
    expect(compile(problem)({ ...valid, token: 'leaked' })).toBe(false);
  });
});

describe(`real answers against the document on ${testDriverName()}`, () => {
  it('serves the document as application/json with cache headers and an ETag', async () => {
    const response = await fetch(`${url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
    // node:http, since fetch adds `Cache-Control: no-cache` to a conditional request.
    const revalidated = await new Promise<number>((resolve, reject) => {
      get(`${url}/api/v1/openapi.json`, { headers: { 'If-None-Match': etag! } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode!);
      }).once('error', reject);
    });
    expect(revalidated).toBe(304);
  });

  it('201 for JSON, urlencoded and multipart with files', async () => {
    const { form, token } = await siteAndForm();
    await expectSendAnswer(await send(url, form.code, { apiKey, token, json: { name: 'Ada', n: 1 } }), 201);
    await expectSendAnswer(
      await send(url, form.code, {
        apiKey,
        token,
        body: 'tag=a&tag=b',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      201,
    );
    const body = await expectSendAnswer(
      await send(url, form.code, {
        apiKey,
        token,
        body: upload([
          { name: 'report.pdf', bytes: pdf() },
          { name: 'photo.png', bytes: png() },
        ]),
        headers: { 'Idempotency-Key': 'openapi-1' },
      }),
      201,
    );
    expect((body.files as unknown[]).length).toBe(2);
  });

  it('401, 403 and 415 in the contract order', async () => {
    const { form, token } = await siteAndForm();
    const other = await siteAndForm();
    await expectSendAnswer(await send(url, form.code, { apiKey: null, token, json: {} }), 401, 'api_key_missing');
    await expectSendAnswer(await send(url, form.code, { apiKey: 'wrong', token, json: {} }), 403, 'api_key_invalid');
    await expectSendAnswer(await send(url, form.code, { apiKey, json: {} }), 401, 'token_missing');
    await expectSendAnswer(await send(url, form.code, { apiKey, token: 'a.b.c', json: {} }), 403, 'token_invalid');
    await expectSendAnswer(await send(url, other.form.code, { apiKey, token, json: {} }), 403, 'form_forbidden');
    await expectSendAnswer(
      await send(url, form.code, { apiKey, token, body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('403 form_closed, with its reason, for a form that is not open yet', async () => {
    const { form, token } = await siteAndForm();
    const opensAt = new Date(Date.now() + 86_400_000);
    await harness.services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { opensAt });
    const problem = await expectSendAnswer(await send(url, form.code, { apiKey, token, json: {} }), 403, 'form_closed');
    expect(problem).toMatchObject({ reason: 'not_yet_open', opensAt: opensAt.toISOString() });
  });

  it('403 origin_not_allowed for a browser post from a page the form does not list', async () => {
    const { form } = await siteAndForm();
    await harness.services.db.em
      .fork()
      .nativeUpdate(FormSchema, { id: form.id }, { browserPosting: true, browserOrigins: ['https://www.example.org'] });
    const refused = await fetch(`${url}/api/v1/send/${form.code}`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    await expectSendAnswer(refused, 403, 'origin_not_allowed');
  });

  it('413 payload_too_large', async () => {
    const { form, token } = await siteAndForm({ maxFileSize: 100 });
    const body = upload([{ name: 'a.txt', bytes: Buffer.alloc(101, 'a') }]);
    await expectSendAnswer(await send(url, form.code, { apiKey, token, body }), 413, 'payload_too_large');
  });

  it('408 body_timeout for a body that arrives too slowly', async () => {
    const { form, token } = await siteAndForm();
    await withGateway(
      (config) => ({ ...config, limits: { ...config.limits, bodyTimeoutMs: 300 } }),
      async (slowUrl) => {
        // Half a body, and then nothing: the answer comes while the request is still open.
        const answer = await new Promise<Response>((resolve, reject) => {
          const request = httpRequest(`${slowUrl}/api/v1/send/${form.code}`, {
            method: 'POST',
            headers: {
              'X-KEY-SERVICE': apiKey,
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              'Content-Length': '100',
            },
          });
          request.on('response', (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const headers = new Headers(response.headers as Record<string, string>);
              resolve(new Response(Buffer.concat(chunks), { status: response.statusCode!, headers }));
            });
          });
          request.on('error', reject);
          request.write('{"a":"');
        });
        await expectSendAnswer(answer, 408, 'body_timeout');
        expect(answer.headers.get('connection')).toBe('close');
      },
    );
  });

  it('400 for the body and for each file and archive refusal', async () => {
    const { site, form, token } = await siteAndForm();
    await expectSendAnswer(await send(url, form.code, { apiKey, token, json: '[1]' }), 400, 'body_invalid');
    const refusals: [string, Buffer | Promise<Buffer>, ErrorCode][] = [
      ['report.jpg', pdf(), 'file_type_mismatch'],
      ['files.zip', zipOf({ 'run.txt': EXECUTABLE_HEADS.pe }), 'archive_executable'],
      ['files.zip', rawZip([{ name: '../../etc/passwd', content: 'x' }]), 'archive_path_traversal'],
      ['files.zip', lyingSizeBomb(64 * 1024 * 1024), 'archive_bomb'],
      ['files.zip', zipOf({ 'a.txt': 'hello '.repeat(500) }).then((zip) => zip.subarray(0, 120)), 'archive_unreadable'],
      ['letter.docx', docm(), 'archive_macro'],
      ['letter.docx', docxWithBody(complexField(['DDEAUTO cmd'])), 'document_active_content'],
    ];
    for (const [name, bytes, code] of refusals) {
      const body = upload([{ name, bytes: await bytes }]);
      await expectSendAnswer(await send(url, form.code, { apiKey, token, body }), 400, code);
    }
    const pngOnly = await makeForm(harness.services, site, { allowedMimeTypes: ['image/png'] });
    const notAllowed = upload([{ name: 'report.pdf', bytes: pdf() }]);
    await expectSendAnswer(
      await send(url, pngOnly.code, { apiKey, token, body: notAllowed }),
      400,
      'file_type_not_allowed',
    );
  });

  it('429 rate_limited with Retry-After and RateLimit-* after too many failed authentications', async () => {
    const { form, token } = await siteAndForm();
    await withGateway(
      (config) => ({ ...config, rateLimits: { ...config.rateLimits, authFailuresPerMinute: 2 } }),
      async (limitedUrl) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          await expectSendAnswer(
            await send(limitedUrl, form.code, { apiKey: 'wrong', token, json: {} }),
            403,
            'api_key_invalid',
          );
        }
        const refused = await send(limitedUrl, form.code, { apiKey: 'wrong', token, json: {} });
        expect(refused.headers.get('ratelimit-limit')).toBe('2');
        await expectSendAnswer(refused, 429, 'rate_limited');
      },
    );
  });

  it('503 scanner_unavailable when clamd cannot be reached', async () => {
    const { form, token } = await siteAndForm();
    const port = await closedPort();
    await withGateway(
      (config) => ({ ...config, clamav: { enabled: true, socket: undefined, host: '127.0.0.1', port } }),
      async (scanningUrl) => {
        const body = upload([{ name: 'report.pdf', bytes: pdf() }]);
        await expectSendAnswer(await send(scanningUrl, form.code, { apiKey, token, body }), 503, 'scanner_unavailable');
      },
    );
  });

  it('503 service_unavailable when the file storage cannot be written', async () => {
    const { form, token } = await siteAndForm();
    // A storage root below a file: every write fails as a broken or missing disk would.
    const broken = { ...harness.services, storage: createLocalStorage('/dev/null/files') };
    await withGateway(
      (config) => config,
      async (brokenUrl) => {
        const body = upload([{ name: 'report.pdf', bytes: pdf() }]);
        await expectSendAnswer(await send(brokenUrl, form.code, { apiKey, token, body }), 503, 'service_unavailable');
      },
      broken,
    );
  });

  it("400 fields_invalid, with its errors, for a body that breaks the form's declared fields", async () => {
    const { form, token } = await siteAndForm();
    const em = harness.services.db.em.fork();
    const fieldsSchema = toJsonSchema([
      { name: 'email', type: 'email', required: true, maxLength: null, choices: null },
    ]);
    await em.nativeUpdate(FormSchema, { id: form.id }, { fieldsSchema });
    const problem = await expectSendAnswer(
      await send(url, form.code, { apiKey, token, json: {} }),
      400,
      'fields_invalid',
    );
    expect(problem.errors).toEqual([{ path: 'email', reason: 'is required' }]);
  });

  it('400 captcha_invalid and 503 captcha_unavailable for a form that requires a CAPTCHA', async () => {
    const { form, token } = await siteAndForm();
    const em = harness.services.db.em.fork();
    await em.nativeUpdate(
      FormSchema,
      { id: form.id },
      {
        captchaProvider: 'turnstile',
        captchaSealedSecret: createCaptchaSecretBox(harness.services.config.tokenEncryptionKey).seal('secret'),
      },
    );
    // A provider nothing answers for; a missing answer is refused without asking it.
    const port = await closedPort();
    await withGateway(
      (config) => ({ ...config, captcha: { ...config.captcha, turnstileVerifyUrl: `http://127.0.0.1:${port}/` } }),
      async (captchaUrl) => {
        await expectSendAnswer(await send(captchaUrl, form.code, { apiKey, token, json: {} }), 400, 'captcha_invalid');
        const answered = { 'cf-turnstile-response': 'answer' };
        await expectSendAnswer(
          await send(captchaUrl, form.code, { apiKey, token, json: answered }),
          503,
          'captcha_unavailable',
        );
      },
    );
  });

  it('404 not_found and 405 method_not_allowed', async () => {
    const { form } = await siteAndForm();
    const notFound = await expectDocumented(await fetch(`${url}/nope`), document.components.responses.NotFound);
    expect(notFound.code).toBe('not_found');
    const wrongMethod = await expectDocumented(
      await fetch(`${url}/api/v1/send/${form.code}`),
      document.components.responses.MethodNotAllowed,
    );
    expect(wrongMethod.code).toBe('method_not_allowed');
  });

  it('400 request_invalid and 431 headers_too_large from the HTTP parser', async () => {
    const malformed = await expectDocumented(
      await rawRequest(url, 'POST /api/v1/send/x HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      document.components.responses.MalformedRequest,
    );
    expect(malformed.code).toBe('request_invalid');
    const longPath = await fetch(`${url}/api/v1/send/${'x'.repeat(20 * 1024)}`, { method: 'POST' });
    const tooLarge = await expectDocumented(longPath, document.components.responses.HeadersTooLarge);
    expect(tooLarge.code).toBe('headers_too_large');
  });

  it('/healthz, /readyz and /metrics', async () => {
    const operations = document.paths;
    await expectDocumented(await fetch(`${url}/healthz`), operations['/healthz']!.get!.responses['200']);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    await expectDocumented(ready, operations['/readyz']!.get!.responses['200']);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('/.well-known/jwks.json', async () => {
    const jwks = await fetch(`${url}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const body = await expectDocumented(jwks, document.paths['/.well-known/jwks.json']!.get!.responses['200']);
    expect(body.keys).toHaveLength(1);
  });
});

const clamd = await clamdStatus();

describeClamd(clamd, `file_infected against the document on ${testDriverName()}`, (found) => {
  it('400 file_infected', async () => {
    const { form, token } = await siteAndForm();
    await withGateway(
      (config) => ({
        ...config,
        clamav: { enabled: true, socket: undefined, host: undefined, port: undefined, ...found.target },
      }),
      async (scanningUrl) => {
        const body = upload([{ name: 'eicar.txt', bytes: eicarBytes() }]);
        await expectSendAnswer(await send(scanningUrl, form.code, { apiKey, token, body }), 400, 'file_infected');
      },
    );
  });
});

describe('coverage', () => {
  it('produced every documented problem code for real (but the masked 500)', () => {
    const expected = codesAnsweredAs('problem').filter(
      (code) => code !== 'internal_error' && (clamd.available || code !== 'file_infected'),
    );
    expect(expected.filter((code) => !seenCodes.has(code))).toEqual([]);
  });
});
