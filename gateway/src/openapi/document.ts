import { codesAnsweredAs, FORM_CLOSED_REASONS, type ErrorCode } from '@intake/shared/errors';

// The gateway's OpenAPI 3.1 document, written once here and served at /api/v1/openapi.json.
// openapi.test.ts validates it against the OpenAPI 3.1 schema and validates real answers (201 and
// every problem code) against the schemas below, so it cannot drift from what the gateway does.

/** The problem codes of each status that `POST /api/v1/send/{code}` can answer (docs/intake-api.md). */
export const SEND_PROBLEMS = {
  400: [
    'body_invalid',
    'fields_invalid',
    'captcha_invalid',
    'file_type_not_allowed',
    'file_type_mismatch',
    'archive_bomb',
    'archive_macro',
    'archive_executable',
    'archive_path_traversal',
    'archive_unreadable',
    'document_active_content',
    'file_infected',
  ],
  401: ['api_key_missing', 'token_missing'],
  403: ['api_key_invalid', 'token_invalid', 'form_forbidden', 'form_closed', 'origin_not_allowed'],
  408: ['body_timeout'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  429: ['rate_limited'],
  500: ['internal_error'],
  503: ['scanner_unavailable', 'captcha_unavailable', 'service_unavailable'],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** Answers of any route: an unknown path, and a method the path does not have. */
export const ROUTING_PROBLEMS = {
  404: ['not_found'],
  405: ['method_not_allowed'],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** Answers of the HTTP parser, before any route: a malformed request, or one with oversized headers. */
export const PARSER_PROBLEMS = {
  400: ['request_invalid'],
  431: ['headers_too_large'],
} as const satisfies Record<number, readonly ErrorCode[]>;

const SEND_PROBLEM_DESCRIPTIONS: Record<keyof typeof SEND_PROBLEMS, string> = {
  400: "The body, the fields the form declares, the visitor's CAPTCHA answer, a file or an archive was refused; nothing was stored. `body_invalid` includes a key holding markup (`<`, `>`), a quote or a control character. `fields_invalid` lists every failing field in `errors`.",
  401: 'A credential is missing.',
  403: "A credential is wrong, the form is not available to this site, the form is closed (`form_closed`: before its opening, after its closing, or at its cap; `reason` says which), or (a browser post) the page's origin is not one of the form's.",
  408: 'The body did not arrive within `BODY_TIMEOUT_MS`; nothing was stored and the connection is closed.',
  413: 'The body (1 MiB for JSON and urlencoded bodies, `MAX_FORM_BODY_SIZE`), a file, the number of files, or the number of fields (1,000 fields; in JSON 1,000 keys and array items across the whole body) is over the limits.',
  415: 'The content type is not application/json, multipart/form-data or application/x-www-form-urlencoded, or a JSON body was sent as urlencoded (as `curl -d` does without a Content-Type); the detail says to set `Content-Type: application/json` for a JSON body.',
  429: 'Over a rate limit. Retry after `Retry-After` seconds. Past `AUTH_FAILURES_PER_MINUTE` failed authentications from an address, its further failing requests get 429 until the window ends; a request whose credentials verify is never refused for this.',
  500: 'An unexpected fault; the body reveals nothing about it.',
  503: "The scanner, the form's CAPTCHA provider, the database or the file storage is unavailable (or the gateway is shutting down); nothing was stored. Retry after `Retry-After` seconds.",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A problem answer whose `status` and `code` are narrowed to one status and its codes. */
function problemResponse(status: number, codes: readonly ErrorCode[], description: string, headers?: object) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/problem+json': {
        schema: {
          type: 'object',
          allOf: [ref('Problem')],
          properties: { status: { const: status }, code: { enum: [...codes] } },
        },
      },
    },
  };
}

const retryHeaders = { 'Retry-After': headerRef('Retry-After') };
const rateLimitHeaders = {
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
};

const closeHeader = { Connection: headerRef('Connection') };

function sendProblemResponses() {
  const entries = Object.entries(SEND_PROBLEMS).map(([status, codes]) => {
    const code = Number(status) as keyof typeof SEND_PROBLEMS;
    const extra = code === 429 ? { ...retryHeaders, ...rateLimitHeaders } : code === 503 ? retryHeaders : {};
    const headers = { ...closeHeader, ...extra };
    return [status, problemResponse(code, codes, SEND_PROBLEM_DESCRIPTIONS[code], headers)];
  });
  return Object.fromEntries(entries) as Record<string, ReturnType<typeof problemResponse>>;
}

const submittedValue = {
  description: 'A submitted value: any JSON value. Strings are sanitised against XSS before storage.',
};

export const openApiDocument = {
  openapi: '3.1.1',
  info: {
    title: 'Intake gateway',
    version: '1.0.0',
    summary: 'Form submissions with files, checked and stored all or nothing.',
    description:
      'A site backend POSTs a form submission (JSON, urlencoded or multipart with files) to `/api/v1/send/{code}` ' +
      'with the application key and its site token. Checks run in the order of the responses below; the first ' +
      'that fails answers with an RFC 9457 problem document whose `code` says why. Any route answers an unknown ' +
      'path with 404 `not_found` and another method with 405 `method_not_allowed`; while the gateway shuts down, ' +
      'a request on an open connection gets 503 `service_unavailable`.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/' }],
  tags: [
    { name: 'intake', description: 'Submissions from site backends' },
    { name: 'browsers', description: 'What pages need for browser posts (docs/static-sites.md)' },
    { name: 'operations', description: 'Probes, metrics and this document' },
  ],
  paths: {
    '/api/v1/send/{code}': {
      post: {
        operationId: 'sendSubmission',
        tags: ['intake'],
        summary: 'Submit a form',
        description:
          'Every top-level key is accepted, unless the form declares its fields: then a body that breaks that ' +
          'shape is `400 fields_invalid` naming every failing field, and undeclared fields are refused or dropped ' +
          'as the form says. A repeated multipart or urlencoded field becomes an array; bracket ' +
          'names (`a[b]`, `a[]`) nest. Files are checked by extension and content, archives and office documents ' +
          'are inspected, and every file may be scanned with ClamAV. `201` is sent only after the submission and ' +
          'all its files are durably stored; any refusal leaves nothing behind. A form may require a CAPTCHA ' +
          "answer (the provider's usual field, such as `cf-turnstile-response`, verified server-side and never " +
          'stored) and may have spam rules (honeypot fields, a duplicate window, a link limit, blocked words). ' +
          'Spam is stored, flagged and not delivered, and answered `201` exactly like a good submission; a ' +
          'duplicate within the window answers like the first (same `id`). A post with neither credential is a ' +
          'browser post (docs/static-sites.md): only a form with browser posting on takes it, from the origins it ' +
          'lists (`Origin`, else `Referer`), with its challenge answer in `altcha`; the JSON answer adds ' +
          '`thankYouUrl`, and a form sent by the browser itself (`Accept: text/html`) is answered `303` to its ' +
          'thank-you address, or refused with an HTML page.',
        security: [{ applicationKey: [], siteToken: [] }, {}],
        parameters: [
          {
            name: 'code',
            in: 'path',
            required: true,
            description: 'The form code (from the admin API).',
            schema: { type: 'string', minLength: 1 },
          },
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'A repeat with the same key on the same form within 24 h returns the first answer.',
            schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
          },
          {
            name: 'X-Intake-Client-IP',
            in: 'header',
            required: false,
            description:
              "The visitor's IP address, as the site backend saw it; sent to the CAPTCHA provider as `remoteip`. " +
              'A value that is not an IPv4 or IPv6 address is ignored.',
            schema: { type: 'string', maxLength: 45 },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: submittedValue },
            },
            'multipart/form-data': {
              schema: {
                type: 'object',
                additionalProperties: {
                  oneOf: [
                    { type: 'string' },
                    { type: 'string', contentMediaType: 'application/octet-stream', description: 'A file part.' },
                  ],
                },
              },
            },
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Stored: the submission and every file are committed.',
            headers: rateLimitHeaders,
            content: { 'application/json': { schema: ref('SubmissionCreated') } },
          },
          '303': {
            description:
              "A browser's own form post was stored: on to the form's thank-you address, or Intake's thank-you page.",
            headers: { Location: { schema: { type: 'string' } } },
          },
          ...sendProblemResponses(),
        },
      },
      options: {
        operationId: 'sendPreflight',
        tags: ['browsers'],
        summary: "CORS preflight of a browser post sent as JSON by a page's script",
        parameters: [{ $ref: '#/components/parameters/FormCode' }],
        responses: {
          '204': {
            description:
              'The origin is one the form lists: `Access-Control-Allow-Origin` names it (never `*`), ' +
              '`Access-Control-Allow-Methods: POST`, no credentials.',
          },
          '403': problemResponse(403, ['origin_not_allowed'], 'Another origin, or a form without browser posting.'),
        },
      },
    },
    '/api/v1/challenge/{code}': {
      get: {
        operationId: 'browserChallenge',
        tags: ['browsers'],
        summary: "A proof-of-work challenge for a browser post (ALTCHA's format)",
        parameters: [{ $ref: '#/components/parameters/FormCode' }],
        responses: {
          '200': {
            description: 'Signed, for this form, expiring in 15 minutes; its answer is taken once.',
            content: { 'application/json': { schema: { type: 'object', required: ['parameters', 'signature'] } } },
          },
          '401': problemResponse(401, ['api_key_missing'], 'The form does not take browser posts.'),
          '403': problemResponse(403, ['origin_not_allowed'], 'The origin is not one the form lists.'),
          '429': problemResponse(
            429,
            ['rate_limited'],
            'Over `BROWSER_POSTS_PER_MINUTE` from this address.',
            retryHeaders,
          ),
        },
      },
    },
    '/api/v1/thanks/{code}': {
      get: {
        operationId: 'thankYouPage',
        tags: ['browsers'],
        summary: "Intake's thank-you page of a browser post, with the receipt to download",
        parameters: [
          { $ref: '#/components/parameters/FormCode' },
          { name: 'receipt', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
          '404': problemResponse(404, ['not_found'], 'Not a receipt of this gateway for this form.'),
        },
      },
    },
    '/api/v1/thanks/{code}/receipt': {
      get: {
        operationId: 'receiptDownload',
        tags: ['browsers'],
        summary: 'The receipt of the thank-you page, as a file',
        parameters: [
          { $ref: '#/components/parameters/FormCode' },
          { name: 'receipt', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The receipt.', content: { 'application/jose': { schema: { type: 'string' } } } },
          '404': problemResponse(404, ['not_found'], 'Not a receipt of this gateway for this form.'),
        },
      },
    },
    '/browser/altcha.js': {
      get: {
        operationId: 'challengeWidget',
        tags: ['browsers'],
        summary: 'The ALTCHA widget, served from this gateway',
        responses: {
          '200': { description: 'JavaScript.', content: { 'text/javascript': { schema: { type: 'string' } } } },
        },
      },
    },
    '/browser/intake-form.js': {
      get: {
        operationId: 'formScript',
        tags: ['browsers'],
        summary: 'The script that sends a form marked `data-intake-form` with fetch',
        responses: {
          '200': { description: 'JavaScript.', content: { 'text/javascript': { schema: { type: 'string' } } } },
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'health',
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        responses: {
          '200': {
            description: 'Up.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status'],
                  properties: { status: { const: 'ok' } },
                },
              },
            },
          },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readiness',
        tags: ['operations'],
        summary: 'Readiness: the database and the storage answer',
        responses: {
          '200': {
            description: 'Ready.',
            content: { 'application/json': { schema: ref('Readiness') } },
          },
          '503': {
            description: 'A dependency is down.',
            headers: retryHeaders,
            content: { 'application/json': { schema: ref('Readiness') } },
          },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        responses: {
          '200': {
            description: 'The Prometheus text exposition format.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/.well-known/jwks.json': {
      get: {
        operationId: 'receiptKeys',
        tags: ['intake'],
        summary: 'The public keys receipts are verified with',
        description:
          'A JSON Web Key Set (RFC 7517) of Ed25519 keys: the key that signs receipts now first, then retired ' +
          "keys still published, so that the receipts they signed still verify. Pick the key by the receipt's `kid`.",
        responses: {
          '200': {
            description: 'The published keys.',
            headers: { 'Cache-Control': { schema: { type: 'string' } } },
            content: { 'application/jwk-set+json': { schema: ref('JsonWebKeySet') } },
          },
        },
      },
    },
    '/api/v1/openapi.json': {
      get: {
        operationId: 'openApiDocument',
        tags: ['operations'],
        summary: 'This document',
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document of the gateway.',
            headers: {
              ETag: { schema: { type: 'string' } },
              'Cache-Control': { schema: { type: 'string' } },
            },
            content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } },
          },
          '304': { description: 'Not modified (`If-None-Match` matched the ETag).' },
        },
      },
    },
  },
  components: {
    parameters: {
      FormCode: {
        name: 'code',
        in: 'path',
        required: true,
        description: 'The form code (from the admin API).',
        schema: { type: 'string', minLength: 1 },
      },
    },
    securitySchemes: {
      applicationKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-KEY-SERVICE',
        description: 'The global application key (`API_KEY`), compared in constant time.',
      },
      siteToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "The site's token from the admin API (`siteApiView`). The scheme name is case-insensitive.",
      },
    },
    headers: {
      Connection: {
        description:
          'Every refusal closes the connection, so a client cannot keep it (and a body it is still trickling) ' +
          'open after the answer.',
        schema: { type: 'string', const: 'close' },
      },
      'Retry-After': {
        description: 'Seconds to wait before retrying.',
        required: true,
        schema: { type: 'integer', minimum: 0 },
      },
      'RateLimit-Limit': {
        description: 'Requests allowed in the current window.',
        schema: { type: 'integer', minimum: 0 },
      },
      'RateLimit-Remaining': {
        description: 'Requests left in the current window.',
        schema: { type: 'integer', minimum: 0 },
      },
      'RateLimit-Reset': {
        description: 'Seconds until the current window ends.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
    responses: {
      NotFound: problemResponse(404, ROUTING_PROBLEMS[404], 'No such route.'),
      MethodNotAllowed: problemResponse(405, ROUTING_PROBLEMS[405], 'The route exists, not with this method.'),
      MalformedRequest: problemResponse(
        400,
        PARSER_PROBLEMS[400],
        'The HTTP request could not be parsed.',
        closeHeader,
      ),
      HeadersTooLarge: problemResponse(
        431,
        PARSER_PROBLEMS[431],
        'The request line and headers together are over 16 KiB (a form code that long, for one).',
        closeHeader,
      ),
    },
    schemas: {
      SubmissionCreated: {
        type: 'object',
        required: ['id', 'createdAt', 'files', 'receipt'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid', description: 'The submission id.' },
          thankYouUrl: {
            type: 'string',
            description:
              'Browser posts only: where to go next (a path is on this gateway: resolve it against the action).',
          },
          createdAt: { type: 'string', format: 'date-time' },
          files: { type: 'array', items: ref('StoredFile') },
          receipt: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
            description:
              'A compact JWS (EdDSA, Ed25519) signed by the gateway, `typ` `intake-receipt+jws`, whose payload ' +
              'names the submission id, form code, site id, `createdAt`, the SHA-256 of the stored data as RFC 8785 ' +
              'canonical JSON (`dataSha256`) and each file (`field`, `name`, `size`, `sha256`). Verify it with the ' +
              'key of its `kid` at `/.well-known/jwks.json`. A replay answers the same receipt.',
          },
        },
      },
      JsonWebKeySet: {
        type: 'object',
        required: ['keys'],
        properties: {
          keys: {
            type: 'array',
            items: {
              type: 'object',
              required: ['kty', 'crv', 'x', 'kid', 'use', 'alg'],
              additionalProperties: false,
              properties: {
                kty: { const: 'OKP' },
                crv: { const: 'Ed25519' },
                x: { type: 'string', description: 'The public key, base64url.' },
                kid: { type: 'string' },
                use: { const: 'sig' },
                alg: { const: 'EdDSA' },
              },
            },
          },
        },
      },
      StoredFile: {
        type: 'object',
        required: ['id', 'field', 'name', 'mimeType', 'size', 'sha256'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          field: { type: 'string', description: 'The multipart field that carried the file.' },
          name: {
            type: 'string',
            maxLength: 255,
            description:
              'The original name, kept as data only: separators, control and bidi characters removed, and ' +
              'HTML-escaped as string values are (`a<b>.pdf` is `a&lt;b&gt;.pdf`), at most 255 bytes of UTF-8.',
          },
          mimeType: { type: 'string', description: 'The type the content was checked to be.' },
          size: { type: 'integer', minimum: 0 },
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
      Problem: {
        type: 'object',
        description: 'RFC 9457 problem details.',
        required: ['type', 'title', 'status', 'detail', 'code'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', format: 'uri' },
          title: { type: 'string' },
          status: { type: 'integer', minimum: 400, maximum: 599 },
          detail: { type: 'string', description: 'Safe to show; never echoes a secret or a submitted value.' },
          code: ref('ProblemCode'),
          errors: {
            type: 'array',
            description:
              "`fields_invalid` only: every field that does not match the form's declared fields, by its path, " +
              'with the reason (never the value sent).',
            items: {
              type: 'object',
              required: ['path', 'reason'],
              additionalProperties: false,
              properties: {
                path: { type: 'string', description: 'The field path, e.g. `email` or `tags[2]`.' },
                reason: { type: 'string', description: 'Why, e.g. `is required`.' },
              },
            },
          },
          reason: {
            enum: [...FORM_CLOSED_REASONS],
            description:
              '`form_closed` only: `not_yet_open`, `closed`, `full` (the form took its cap) or `full_for_address` ' +
              "(the sender's address took its own).",
          },
          opensAt: {
            type: 'string',
            format: 'date-time',
            description: '`form_closed`, `not_yet_open`: when it opens.',
          },
          closedAt: { type: 'string', format: 'date-time', description: '`form_closed`, `closed`: since when.' },
        },
      },
      ProblemCode: {
        type: 'string',
        description: 'Stable code of the refusal.',
        enum: codesAnsweredAs('problem'),
      },
      CheckStatus: { enum: ['ok', 'down'] },
      Readiness: {
        type: 'object',
        required: ['status', 'checks'],
        properties: {
          status: { enum: ['ok', 'unavailable'] },
          checks: {
            type: 'object',
            required: ['database', 'storage'],
            properties: {
              database: ref('CheckStatus'),
              storage: ref('CheckStatus'),
              rateLimits: {
                type: 'string',
                description:
                  'Where the rate limits are counted: `redis`, `memory`, or `memory (redis unavailable)`. A Redis outage does not make the gateway unready.',
              },
            },
          },
        },
      },
    },
  },
} as const;
