// Structural checks of a submitted body (docs/intake-api.md, `body_invalid`), run on the parsed fields of
// every body format before anything is sanitised or stored. Details say which rule failed, never
// which key or value: they are sent to the client and logged as they are.
import { AppError } from '@intake/shared/errors';
import { isPlainObject } from '@intake/shared/plain-object';
import { MAX_STRING_BYTES } from '../body/limits.js';

/** The top-level object is depth 1; every object or array inside adds a level (an array counts like an object). */
export const MAX_DEPTH = 8;
/** Longest string (value or key) in UTF-8 bytes: 64 KiB, also multer's per-field cap. */
export { MAX_STRING_BYTES };
/** Keys that reach prototypes when a body is merged or assigned, refused at any level. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

// Keys are stored as sent and shown as labels: a key with `<` or `>` is markup or a fragment of it.
// A quote closes an attribute a key is written into (`data-field="…"`), and CR or LF split the
// header, CSV row or log line it lands in; no form field is named with either, so both are refused
// rather than escaped (a key is stored exactly as sent). `&` alone cannot open an element.
const KEY_MARKUP = /[<>]/;
const KEY_QUOTE_OR_CONTROL = /["'\u0000-\u001F\u007F-\u009F]/;

/** Longest field name of a file: what its stored row holds (`stored_files.field`). */
export const MAX_FILE_FIELD_NAME_LENGTH = 255;

const DETAIL = {
  notObject: 'The body must be an object of fields.',
  forbiddenKey: 'The body holds a forbidden key.',
  keyMarkup: 'A key holds markup (< or >).',
  keyQuoteOrControl: 'A key holds a quote or a control character.',
  tooDeep: `The body is nested deeper than ${MAX_DEPTH} levels.`,
  tooLong: 'A string is longer than 64 KiB in UTF-8.',
  malformedString: 'A string holds U+0000 or a lone surrogate.',
  badNumber: 'A number is out of range.',
  badType: 'A value has an unsupported type.',
  fileFieldTooLong: `A file's field name is longer than ${MAX_FILE_FIELD_NAME_LENGTH} characters.`,
} as const;

function refuse(detail: string): never {
  throw new AppError('body_invalid', detail);
}

function checkString(s: string): void {
  if (s.includes('\u0000') || !s.isWellFormed()) {
    refuse(DETAIL.malformedString);
  }
  // A UTF-16 unit is at least one UTF-8 byte: longer strings need no counting.
  if (s.length > MAX_STRING_BYTES || Buffer.byteLength(s, 'utf8') > MAX_STRING_BYTES) {
    refuse(DETAIL.tooLong);
  }
}

/** Rules of a key, also applied to multipart field names of files. */
export function validateFieldName(key: string): void {
  if (FORBIDDEN_KEYS.has(key)) {
    refuse(DETAIL.forbiddenKey);
  }
  if (KEY_MARKUP.test(key)) {
    refuse(DETAIL.keyMarkup);
  }
  checkString(key);
  if (KEY_QUOTE_OR_CONTROL.test(key)) {
    refuse(DETAIL.keyQuoteOrControl);
  }
}

/** A file's multipart field name: the rules of any key, and short enough to be stored. */
export function validateFileFieldName(field: string): void {
  validateFieldName(field);
  if (field.length > MAX_FILE_FIELD_NAME_LENGTH) {
    refuse(DETAIL.fileFieldTooLong);
  }
}

/**
 * Returns the body as a record when it is a plain object that breaks no rule, else throws
 * `body_invalid`. The walk keeps its own stack and refuses a container as soon as it would sit deeper
 * than MAX_DEPTH, so a 10,000-deep body costs nine levels of work and no call stack.
 */
export function validateSubmissionBody(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) {
    refuse(DETAIL.notObject);
  }
  const pending: Array<{ container: Record<string, unknown> | unknown[]; depth: number }> = [
    { container: body, depth: 1 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { container, depth } = next;
    let items: unknown[];
    if (Array.isArray(container)) {
      items = container;
    } else {
      // Own keys: JSON.parse makes `__proto__` an own property, which `in` or a lookup would miss.
      const keys = Object.keys(container);
      for (const key of keys) {
        validateFieldName(key);
      }
      items = keys.map((key) => container[key]);
    }
    for (const item of items) {
      if (typeof item === 'string') {
        checkString(item);
      } else if (typeof item === 'number') {
        // JSON.parse turns 1e999 into Infinity, which no JSON column can store as it is.
        if (!Number.isFinite(item)) {
          refuse(DETAIL.badNumber);
        }
      } else if (Array.isArray(item) || isPlainObject(item)) {
        if (depth + 1 > MAX_DEPTH) {
          refuse(DETAIL.tooDeep);
        }
        pending.push({ container: item, depth: depth + 1 });
      } else if (typeof item !== 'boolean' && item !== null) {
        refuse(DETAIL.badType);
      }
    }
  }
  return body;
}
