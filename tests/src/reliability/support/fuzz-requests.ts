// fast-check arbitraries for whole intake requests: credentials (valid most of the time, so the
// deep path is exercised), Content-Type and Idempotency-Key variants, and bodies of every kind the
// gateway reads — JSON of odd shapes, urlencoded, and multipart assembled byte by byte so that
// boundaries, part headers and file names can be as wrong as a client can make them.
import fc from 'fast-check';

export interface Samples {
  /** Named files: real small files of allowed types, hostile archives and documents, junk. */
  files: Record<string, { bytes: Buffer; name: string }>;
}

export interface FuzzCredentials {
  apiKey: string;
  token: string;
  formCode: string;
}

export interface FuzzRequest {
  /** The form code as it goes into the path (already URL-encoded). */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  kind: 'json' | 'urlencoded' | 'multipart';
  /** What the case is, for a failure message (never the whole body). */
  label: string;
}

// ----------------------------------------------------------------------------------- strings

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\ufeff',
  '\u200b\u200d',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  "'; drop table submissions; --",
  '../../../etc/passwd',
  '..\\..\\windows\\system32',
  'C:\\boot.ini',
  '%00',
  '%2e%2e%2f',
  '\r\nX-Injected: 1',
  '𝕳𝖊𝖑𝖑𝖔 👋🏽 e\u0301',
  'constructor',
  '__proto__',
  'prototype',
  'toString',
];

/** Any string, biased towards the ones that have broken parsers before. */
export const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 2000 }))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

/** Strings over the 64 KiB limit of a value (or just under it), made cheaply. */
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '👋', '<b>'), fc.integer({ min: 15_000, max: 70_000 }))
  .map(([unit, count]) => unit.repeat(Math.ceil(count / unit.length)));

// -------------------------------------------------------------------------------------- JSON

const KEYS = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'a[b]', '<b>x</b>', 'a.b', '$where'),
  },
  { weight: 1, arbitrary: oddString },
);

const { value: jsonLike } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    oddString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(KEYS, tie('value'), { maxKeys: 4 }),
  ),
}));

/** `depth` objects (or arrays) nested in each other around a leaf. */
const deeplyNested = fc.tuple(fc.integer({ min: 6, max: 200 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) {
    value = arrays ? [value] : { next: value };
  }
  return { nested: value };
});

/** Object texts whose keys JSON.stringify would never write: built as text. */
const forbiddenKeyText = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.jsonValue({ maxDepth: 2 }), fc.boolean())
  .map(([key, value, nested]) =>
    nested ? `{"a":{"${key}":${JSON.stringify(value)}}}` : `{"${key}":${JSON.stringify(value)},"b":1}`,
  );

const jsonText = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(KEYS, jsonLike, { maxKeys: 6 }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: jsonLike.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: deeplyNested.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: hugeString.map((value) => JSON.stringify({ message: value })) },
  { weight: 1, arbitrary: forbiddenKeyText },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"a":',
      '{"a":1}}',
      '[1,2',
      'nul',
      '1e999',
      '{"a":"\\ud800"}',
      '\ufeff{"a":1}',
      '{"a":1,"a":2}',
    ),
  },
);

// -------------------------------------------------------------------------------- urlencoded

const urlencodedText = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.string({ maxLength: 10 }),
        fc.constantFrom('a[]', 'a[b][c]', 'a[0]', '__proto__[x]', 'x[', ']]', '%zz'),
      ),
      fc.oneof(oddString, hugeString),
      fc.boolean(),
    ),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs
      .map(([key, value, encode]) =>
        encode
          ? `${encodeURIComponent(key)}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`
          : `${key}=${value}`,
      )
      .join('&'),
  );

// --------------------------------------------------------------------------------- multipart

const FILE_NAMES = [
  'report.pdf',
  'photo.PNG',
  'notes.txt',
  'archive.zip',
  'letter.docx',
  '../../etc/passwd',
  '..\\..\\evil.pdf',
  '/etc/shadow.txt',
  'C:\\Windows\\evil.pdf',
  'evil\u202efdp.exe',
  'a\u0000b.pdf',
  'tab\there.txt',
  'line\nbreak.txt',
  'quote".pdf',
  '',
  '.',
  '..',
  'report.pdf.',
  'report.pdf ',
  'run.exe',
  'script.sh',
  'noextension',
  '%2e%2e%2fpasswd.txt',
  'résumé 😀.pdf',
];

const fileName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FILE_NAMES) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(oddString, fc.constantFrom('.pdf', '.png', '.txt', '.zip', '.exe', '', '.docx'))
      .map(([stem, ext]) => stem + ext),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).map((length) => `${'n'.repeat(length)}.pdf`) },
);

const partContentType = fc.option(
  fc.constantFrom(
    'application/pdf',
    'image/png',
    'text/plain',
    'application/octet-stream',
    'application/zip',
    'text/html',
    'x/y; a=b',
    '',
  ),
  { nil: undefined },
);

interface PartSpec {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  content: Buffer;
}

function partArbitrary(samples: Samples) {
  const sampleList = Object.values(samples.files);
  const content = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...sampleList).map((sample) => sample.bytes) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: oddString.map((text) => Buffer.from(text)) },
  );
  const field = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('name', 'message', 'file', 'files[]', 'a[b]', 'a[b][c][d][e][f][g][h][i][j]', 'name'),
    },
    { weight: 1, arbitrary: oddString },
  );
  return fc.oneof(
    fc.record({
      name: field,
      filename: fc.constant(undefined),
      contentType: fc.constant(undefined),
      content: oddString.map((text) => Buffer.from(text)),
    }),
    fc.record({ name: field, filename: fileName, contentType: partContentType, content }),
    // A sample under its own name, with any field name and content type.
    fc
      .record({ name: field, sample: fc.constantFrom(...sampleList), contentType: partContentType })
      .map(({ name, sample, contentType }) => ({ name, filename: sample.name, contentType, content: sample.bytes })),
  ) as fc.Arbitrary<PartSpec>;
}

/**
 * Parts a real form would send: plain fields, and samples under their own names, so that the
 * type, archive and document checks see them.
 */
function wellFormedPart(samples: Samples): fc.Arbitrary<PartSpec> {
  const sampleList = Object.values(samples.files);
  return fc.oneof(
    fc.record({
      name: fc.constantFrom('name', 'email', 'message', 'tags[]', 'address[city]'),
      filename: fc.constant(undefined),
      contentType: fc.constant(undefined),
      content: fc.string({ maxLength: 40 }).map((text) => Buffer.from(text)),
    }),
    fc
      .record({ name: fc.constantFrom('file', 'attachment', 'files[]'), sample: fc.constantFrom(...sampleList) })
      .map(({ name, sample }) => ({ name, filename: sample.name, contentType: undefined, content: sample.bytes })),
  );
}

const boundaryArb = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9'()+_,\-./:=?]{1,70}$/) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a'.repeat(200), '--', 'x"y', 'é') },
);

function multipartBody(
  boundary: string,
  parts: PartSpec[],
  shape: { close: boolean; crlf: boolean; preamble: string },
): Buffer {
  const newline = shape.crlf ? '\r\n' : '\n';
  const chunks: Buffer[] = [Buffer.from(shape.preamble)];
  for (const part of parts) {
    let disposition = `Content-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) {
      disposition += `; filename="${part.filename}"`;
    }
    const headers = [disposition, ...(part.contentType !== undefined ? [`Content-Type: ${part.contentType}`] : [])];
    chunks.push(
      Buffer.from(`--${boundary}${newline}${headers.join(newline)}${newline}${newline}`),
      part.content,
      Buffer.from(newline),
    );
  }
  if (shape.close) {
    chunks.push(Buffer.from(`--${boundary}--${newline}`));
  }
  return Buffer.concat(chunks);
}

// ----------------------------------------------------------------------------------- headers

/** A header value fetch will send: visible latin-1 only, no line breaks. */
const headerText = fc.string({ maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '').trim());

function contentTypeFor(kind: 'json' | 'urlencoded' | 'multipart', boundary: string) {
  const proper = {
    json: 'application/json',
    urlencoded: 'application/x-www-form-urlencoded',
    // Quoted when it holds characters a bare parameter value may not (as a careful client does).
    multipart: `multipart/form-data; boundary=${/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(boundary) ? boundary : `"${boundary}"`}`,
  }[kind];
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(proper) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        `${proper}; charset=utf-8`,
        proper.toUpperCase(),
        'application/json; charset=latin1',
        'multipart/form-data',
        `multipart/form-data; boundary=${boundary}`,
        'multipart/mixed; boundary=x',
        'text/plain',
        'application/problem+json',
        'application/x-www-form-urlencoded; charset=utf-16',
        '*/*',
        'application/vnd.api+json',
        '',
      ),
    },
    { weight: 1, arbitrary: headerText },
  );
}

export function fuzzRequest(samples: Samples, credentials: FuzzCredentials): fc.Arbitrary<FuzzRequest> {
  const apiKey = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(credentials.apiKey) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        headerText,
        fc.constant(`${credentials.apiKey} `),
        fc.constant(credentials.apiKey.toLowerCase()),
      ),
    },
  );
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(`Bearer ${credentials.token}`) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        headerText,
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          `bearer ${credentials.token}`,
          `Basic ${credentials.token}`,
          `Bearer ${credentials.token}x`,
          `Bearer ${credentials.token.slice(0, -2)}`,
          `Bearer ${credentials.token.split('.').slice(0, 2).join('.')}.`,
          'Bearer eyJhbGciOiJub25lIn0.eyJ4IjoxfQ.',
          `Bearer ${'a'.repeat(5000)}`,
        ),
      ),
    },
  );
  const formPath = fc.oneof(
    { weight: 12, arbitrary: fc.constant(credentials.formCode) },
    { weight: 1, arbitrary: oddString.map((code) => encodeURIComponent(code.replace(/[\ud800-\udfff]/g, '')) || 'x') },
  );
  const idempotencyKey = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(undefined) },
    // Mostly fresh keys; two repeated ones make replays.
    { weight: 2, arbitrary: fc.stringMatching(/^[\x21-\x7e]{8,40}$/) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>('fuzz-key-1', 'fuzz-key-2') },
    { weight: 1, arbitrary: fc.oneof(headerText, fc.constant('k'.repeat(300))) },
  );
  const body = fc.oneof(
    fc.tuple(fc.constant('json' as const), jsonText, fc.constant('')),
    fc.tuple(fc.constant('urlencoded' as const), urlencodedText, fc.constant('')),
    fc.tuple(
      fc.constant('multipart' as const),
      fc.record({
        boundary: boundaryArb,
        parts: fc.oneof(
          fc.array(wellFormedPart(samples), { maxLength: 4 }),
          fc.array(partArbitrary(samples), { maxLength: 5 }),
        ),
        close: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        crlf: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        preamble: fc.constantFrom('', '', 'preamble\r\n', '\r\n'),
      }),
      fc.constant(''),
    ),
  );
  return fc
    .tuple(apiKey, authorization, formPath, idempotencyKey, body)
    .chain(([key, auth, path, idempotency, [kind, content]]) => {
      const boundary = typeof content === 'string' ? 'unused' : content.boundary;
      return contentTypeFor(kind, boundary).map((contentType) => {
        const headers: Record<string, string> = {};
        if (key !== undefined) {
          headers['X-KEY-SERVICE'] = key;
        }
        if (auth !== undefined) {
          headers.Authorization = auth;
        }
        if (idempotency !== undefined) {
          headers['Idempotency-Key'] = idempotency;
        }
        if (contentType !== '') {
          headers['Content-Type'] = contentType;
        }
        const bytes =
          typeof content === 'string' ? Buffer.from(content) : multipartBody(content.boundary, content.parts, content);
        const parts = typeof content === 'string' ? '' : ` ${content.parts.length} parts`;
        return {
          path,
          headers,
          body: bytes,
          kind,
          label: `${kind}${parts}, ${bytes.length} bytes, Content-Type ${JSON.stringify(contentType)}`,
        };
      });
    });
}
