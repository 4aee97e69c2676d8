import { describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import {
  FORBIDDEN_KEYS,
  MAX_DEPTH,
  MAX_STRING_BYTES,
  MAX_FILE_FIELD_NAME_LENGTH,
  validateFieldName,
  validateFileFieldName,
  validateSubmissionBody,
} from './validate-body.js';

/** The AppError thrown by `run`, or a failure if it did not throw one. */
function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected body_invalid, nothing was thrown');
}

function expectRefused(body: unknown, detail: RegExp): AppError {
  const error = refusal(() => validateSubmissionBody(body));
  expect(error.code).toBe('body_invalid');
  expect(error.status).toBe(400);
  expect(error.detail).toMatch(detail);
  return error;
}

/** An object nested `depth` levels deep, the top-level object being level 1. */
function nestedObject(depth: number): Record<string, unknown> {
  let body: Record<string, unknown> = { leaf: 'value' };
  for (let level = 1; level < depth; level += 1) {
    body = { child: body };
  }
  return body;
}

/** A top-level object holding arrays, `depth` levels in all. */
function nestedArrays(depth: number): Record<string, unknown> {
  let value: unknown = ['leaf'];
  for (let level = 2; level < depth; level += 1) {
    value = [value];
  }
  return { list: value };
}

describe('validateSubmissionBody', () => {
  it('returns a valid body as it is', () => {
    const body = { name: 'Jane', age: 42, ok: true, none: null, tags: ['a', 1], address: { city: 'Lyon' } };
    expect(validateSubmissionBody(body)).toBe(body);
  });

  it('accepts null-prototype objects (urlencoded and multipart fields)', () => {
    const body = Object.assign(Object.create(null) as Record<string, unknown>, { field: ['a', 'b'] });
    expect(validateSubmissionBody(body)).toBe(body);
  });

  it('accepts an empty object', () => {
    expect(validateSubmissionBody({})).toEqual({});
  });

  describe('the body must be a plain object', () => {
    it.each([
      ['an array', [1, 2]],
      ['null', null],
      ['undefined', undefined],
      ['a string', '{"a":1}'],
      ['a number', 42],
      ['a boolean', true],
      ['a Date', new Date(0)],
      ['a Map', new Map([['a', 1]])],
      ['a class instance', new (class Fields {})()],
    ])('refuses %s', (_name, body) => {
      expectRefused(body, /must be an object/);
    });
  });

  describe('forbidden keys', () => {
    it.each([...FORBIDDEN_KEYS])('refuses %s at the top level', (key) => {
      expectRefused(JSON.parse(`{${JSON.stringify(key)}: 1}`), /forbidden key/);
    });

    it('refuses the own __proto__ property JSON.parse creates', () => {
      const body: unknown = JSON.parse('{"__proto__":{"x":1}}');
      expect(Object.keys(body as object)).toEqual(['__proto__']);
      expectRefused(body, /forbidden key/);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it.each([
      ['in a nested object', '{"a":{"b":{"constructor":{"prototype":{}}}}}'],
      ['in an object inside an array', '{"list":[1,"x",{"__proto__":{"admin":true}}]}'],
      ['in arrays of arrays', '{"list":[[[{"prototype":1}]]]}'],
      ['after valid keys', '{"a":1,"b":{"c":2},"d":{"__proto__":null}}'],
    ])('refuses one %s', (_name, json) => {
      expectRefused(JSON.parse(json), /forbidden key/);
    });

    it('accepts keys that merely contain a forbidden word', () => {
      expect(() =>
        validateSubmissionBody({ constructorName: 1, __proto: 2, my_prototype: 3, Constructor: 4 }),
      ).not.toThrow();
    });
  });

  describe('nesting depth', () => {
    it(`accepts objects ${MAX_DEPTH} levels deep and refuses ${MAX_DEPTH + 1}`, () => {
      expect(MAX_DEPTH).toBe(8);
      expect(() => validateSubmissionBody(nestedObject(MAX_DEPTH))).not.toThrow();
      expectRefused(nestedObject(MAX_DEPTH + 1), /nested deeper than 8 levels/);
    });

    it('counts an array as a level', () => {
      expect(() => validateSubmissionBody(nestedArrays(MAX_DEPTH))).not.toThrow();
      expectRefused(nestedArrays(MAX_DEPTH + 1), /nested deeper than 8 levels/);
      // Level 1 object, level 2 array, level 3 object.
      expect(() => validateSubmissionBody({ a: [{ b: 1 }] })).not.toThrow();
    });

    it('does not count scalars as a level', () => {
      const body = nestedObject(MAX_DEPTH);
      expect(() => validateSubmissionBody({ ...body, extra: 'x' })).not.toThrow();
    });

    it('refuses a deep branch beside shallow ones', () => {
      expectRefused({ a: 1, b: [1, 2], c: nestedObject(MAX_DEPTH) }, /nested deeper/);
    });

    it('stops early on a 5,000-deep body parsed by JSON.parse, without using the call stack', () => {
      const json = `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
      const body: unknown = JSON.parse(json);
      expectRefused(body, /nested deeper/);
      const deepObject: unknown = JSON.parse(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`);
      expectRefused(deepObject, /nested deeper/);
    });

    it('survives a 100,000-deep structure built in memory', () => {
      let value: unknown = [];
      for (let i = 0; i < 100_000; i += 1) {
        value = [value];
      }
      expectRefused({ value }, /nested deeper/);
    });
  });

  describe('string length in UTF-8 bytes', () => {
    it('is 64 KiB', () => {
      expect(MAX_STRING_BYTES).toBe(65_536);
    });

    it('accepts 65,536 bytes and refuses 65,537', () => {
      expect(() => validateSubmissionBody({ s: 'a'.repeat(65_536) })).not.toThrow();
      expectRefused({ s: 'a'.repeat(65_537) }, /longer than 64 KiB/);
    });

    it('counts multi-byte characters by their UTF-8 size', () => {
      // é is 2 bytes, € is 3, 😀 is 4 (2 UTF-16 units).
      expect(() => validateSubmissionBody({ s: 'é'.repeat(32_768) })).not.toThrow();
      expectRefused({ s: 'é'.repeat(32_768) + 'a' }, /longer than 64 KiB/);
      expect(() => validateSubmissionBody({ s: '€'.repeat(21_845) + 'a' })).not.toThrow();
      expectRefused({ s: '€'.repeat(21_845) + 'ab' }, /longer than 64 KiB/);
      expect(() => validateSubmissionBody({ s: '😀'.repeat(16_384) })).not.toThrow();
      expectRefused({ s: '😀'.repeat(16_384) + 'a' }, /longer than 64 KiB/);
    });

    it('applies to strings in nested arrays and objects, and to keys', () => {
      const long = 'x'.repeat(65_537);
      expectRefused({ a: [{ b: ['ok', long] }] }, /longer than 64 KiB/);
      expectRefused({ [long]: 1 }, /longer than 64 KiB/);
    });
  });

  describe('malformed strings', () => {
    it.each([
      ['U+0000 in a value', { s: 'a\u0000b' }],
      ['U+0000 in a nested value', { a: ['ok', { b: '\u0000' }] }],
      ['U+0000 in a key', { 'a\u0000': 1 }],
      ['a lone high surrogate', { s: 'a\uD83Db' }],
      ['a lone low surrogate', { s: '\uDE00' }],
      ['a reversed pair', { s: '\uDE00\uD83D' }],
      ['a lone surrogate in a key', { '\uD800': 'x' }],
      ['JSON escapes of a lone surrogate', JSON.parse('{"s":"\\ud800"}')],
      ['JSON escape of U+0000', JSON.parse('{"s":"\\u0000"}')],
    ])('refuses %s', (_name, body) => {
      expectRefused(body, /U\+0000 or a lone surrogate/);
    });

    it('accepts surrogate pairs and other control characters', () => {
      expect(() => validateSubmissionBody({ s: '😀 \u0001 \t \n \u007F \uFFFF' })).not.toThrow();
    });
  });

  describe('keys holding markup', () => {
    it.each(['<b>', 'a<b', 'x>y', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<!--'])(
      'refuses the key %j',
      (key) => {
        expectRefused({ [key]: 'value' }, /key holds markup/);
      },
    );

    it('refuses one in a nested object', () => {
      expectRefused({ a: [{ '<i>': 1 }] }, /key holds markup/);
    });

    it('accepts keys with &, which opens no element', () => {
      expect(() => validateSubmissionBody({ 'Name & Co': 1, '&lt;b&gt;': 4, 'Prénom (1)': 5 })).not.toThrow();
    });

    it.each([
      'say "hi"',
      "it's",
      'a\r\nSet-Cookie: x=1',
      'line\nbreak',
      'tab\there',
      'bell\u0007',
      'c1\u0085',
      'del\u007F',
    ])('refuses the key %j, holding a quote or a control character', (key) => {
      expectRefused({ [key]: 'value' }, /key holds a quote or a control character/);
      expectRefused({ a: [{ [key]: 1 }] }, /key holds a quote or a control character/);
    });

    it('does not look at markup in values (the sanitiser handles those)', () => {
      expect(() => validateSubmissionBody({ comment: '<b>bold</b>' })).not.toThrow();
    });
  });

  describe('value types', () => {
    it('refuses numbers JSON cannot store as they are', () => {
      expectRefused(JSON.parse('{"n":1e999}'), /number is out of range/);
      expectRefused({ n: Number.NaN }, /number is out of range/);
    });

    it.each([
      ['undefined', undefined],
      ['a function', () => 1],
      ['a symbol', Symbol('s')],
      ['a bigint', 10n],
      ['a Date', new Date(0)],
    ])('refuses %s', (_name, value) => {
      expectRefused({ a: [value] }, /unsupported type/);
    });
  });

  describe('error details', () => {
    const secret = 'S3CRET-VALUE-<script>';
    it.each([
      ['a long value', { field: secret + 'x'.repeat(65_536) }],
      ['a value with U+0000', { field: `${secret}\u0000` }],
      ['a key with markup', { [`<${secret}>`]: 'v' }],
      ['a deep value', nestedObject(MAX_DEPTH + 1)],
      ['a forbidden key', JSON.parse(`{"a":{"__proto__":${JSON.stringify(secret)}}}`)],
    ])('never echo the key or the value (%s)', (_name, body) => {
      const error = expectRefused(body, /./);
      expect(error.detail).not.toContain('S3CRET');
      expect(error.detail).not.toContain('__proto__');
      expect(error.detail).not.toContain('leaf');
      expect(error.detail.length).toBeLessThan(80);
    });
  });
});

describe('validateFileFieldName', () => {
  it('refuses a field name its stored row cannot hold, and takes one that fits', () => {
    expect(() => validateFileFieldName('f'.repeat(MAX_FILE_FIELD_NAME_LENGTH))).not.toThrow();
    const error = refusal(() => validateFileFieldName('f'.repeat(MAX_FILE_FIELD_NAME_LENGTH + 1)));
    expect(error.code).toBe('body_invalid');
    expect(error.detail).toMatch(/longer than 255 characters/);
    expect(refusal(() => validateFileFieldName('<file>')).detail).toMatch(/key holds markup/);
  });
});

describe('validateFieldName', () => {
  it('accepts ordinary field names', () => {
    expect(() => validateFieldName('fichier')).not.toThrow();
    expect(() => validateFieldName('pièce jointe[0]')).not.toThrow();
  });

  it.each([
    ['__proto__', /forbidden key/],
    ['constructor', /forbidden key/],
    ['<file>', /key holds markup/],
    ['a\u0000', /U\+0000/],
    ['\uD800', /lone surrogate/],
    ['f'.repeat(65_537), /longer than 64 KiB/],
  ])('refuses %j', (name, detail) => {
    const error = refusal(() => validateFieldName(name));
    expect(error.code).toBe('body_invalid');
    expect(error.detail).toMatch(detail);
  });
});
